/**
 * The idle logout's decision (docs/station.md#idle-logout): whether an operator who has done nothing at
 * the seat for a while is signed out now, warned first, or left alone. Pure: the shell passes `now`
 * and keeps the timer.
 */

export interface IdleInput {
  operator: string | null;
  /** the last input at the seat, or the login */
  lastActivity: number;
  /** the seat holds pending work (a lit line, a tote, a slot being counted) */
  workInHand: boolean;
  now: number;
  /** idle time before the sign-out (or the warning, with work in hand); 0: never */
  idleLogoutMs: number;
  /** how long the warning shows before the sign-out, with work in hand */
  warningMs: number;
}

export type IdleDecision =
  /** nothing to do before `checkAt` (null: nothing to check until something happens) */
  | { kind: "active"; checkAt: number | null }
  /** the warning shows; the operator is signed out at `logoutAt` */
  | { kind: "warn"; logoutAt: number }
  | { kind: "sign_out" };

export function idleDecision(i: IdleInput): IdleDecision {
  if (i.operator === null || i.idleLogoutMs <= 0) return { kind: "active", checkAt: null };
  const idleAt = i.lastActivity + i.idleLogoutMs;
  if (i.now < idleAt) return { kind: "active", checkAt: idleAt };
  if (!i.workInHand) return { kind: "sign_out" };
  const logoutAt = idleAt + i.warningMs;
  return i.now < logoutAt ? { kind: "warn", logoutAt } : { kind: "sign_out" };
}

/** Whole seconds left until `at` (rounded up, never below 0): the warning's countdown. */
export function secondsLeft(at: number, now: number): number {
  return Math.max(0, Math.ceil((at - now) / 1000));
}
