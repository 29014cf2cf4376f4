/**
 * Keeps each seat's lit pick work across a restart (docs/station.md#after-a-restart): the engine tells it
 * every seat's new state (engine.ts `onSeatState`), and it writes the lit work, with the line's picked
 * count then, only when that changed. At start, before the engine takes any input, the work lit before
 * the restart becomes what the restart did to it, said on the seat's screen until acknowledged.
 */
import type { Logger } from "pino";
import type { LitWork, LostWork } from "../domain/seat-work.js";
import type { SeatState } from "./seat.types.js";
import { litWorkOf, lostWork, sameWork } from "./seat-work.js";

export interface SeatWorkStore {
  keepLit(seat: string, work: LitWork | null, at: number): void;
  litWork(): Array<{ seat: string; work: LitWork }>;
  keepLost(seat: string, work: LostWork, at: number): void;
  /** The units of the work recorded so far: a pick line's picked count, a put item's units put or settled. */
  done(work: Omit<LitWork, "pickedBefore">): number;
}

export function createSeatWorkKeeper(deps: { store: SeatWorkStore; now: () => number; log: Logger }) {
  const kept = new Map<string, ReturnType<typeof litWorkOf>>();
  return {
    /** A seat's new state: its lit work kept, or forgotten once it has none. */
    onSeatState(seat: string, state: SeatState): void {
      const lit = litWorkOf(state);
      if (sameWork(kept.get(seat) ?? null, lit)) return;
      kept.set(seat, lit);
      const work = lit ? { ...lit, pickedBefore: deps.store.done(lit) } : null;
      deps.store.keepLit(seat, work, deps.now());
    },
    /** At start: the work lit before the restart, with the units the line's picked count says were recorded. */
    recover(): void {
      for (const { seat, work } of deps.store.litWork()) {
        const lost = lostWork(work, deps.store.done(work));
        deps.store.keepLost(seat, lost, deps.now());
        deps.log.warn({ seat, ...lost }, "work lit at a seat before the restart: the operator is told");
      }
    },
  };
}
