import type { ScreenRepo } from "../../db/screen.repo.js";

/**
 * What the operator screen reads about the work at the station (its door; docs/station.md#operator-screen):
 * the orders in each bin, the pick lines on the presented racks and whether picks wait for a rack, the
 * racks, the staged puts' items, the audit being counted, and the operators seen at the station with
 * their languages. The screen derives its state from these after every change (station/screen/).
 *
 * The two writes, an operator seen and an operator's language, are the screen's own memory for its
 * login buttons and its language: no station state, nothing to notify, one statement each. So they
 * are not a unit of work's change and run as the single statement they are.
 */
export function createScreenReadsService(repo: ScreenRepo) {
  return {
    /** The requests each bin holds, by bin. */
    orders: () => repo.orders(),
    /** The reserved pick lines on the presented racks, in work order. */
    pickLines: () => repo.pickLines(),
    /** Whether a pick in a bin is still to be picked: with no line shown, the screen waits for a rack. */
    pickWaiting: (): boolean => repo.pickWaiting(),
    /** The presented racks, in the order they came. */
    racks: (): string[] => repo.racks(),
    /** The staged (and complete) puts' products, each with what is still to put. */
    putItems: () => repo.putItems(),
    /** The audit being counted, with its lines; null when none is. */
    audit: () => repo.audit(),
    /** The operators seen last, newest first (the login buttons). */
    operators: (limit: number): string[] => repo.operators(limit),
    /** The operator's own language, if they chose one. */
    operatorLang: (name: string): string | null => repo.operatorLang(name),
    /** Sets (or, with null, forgets) the operator's language. */
    setOperatorLang: (name: string, lang: string | null): void => repo.setOperatorLang(name, lang),
    /** Notes an operator logging in at the station now. */
    sawOperator: (name: string, at: number): void => repo.sawOperator(name, at),
  };
}

export type ScreenReadsService = ReturnType<typeof createScreenReadsService>;
