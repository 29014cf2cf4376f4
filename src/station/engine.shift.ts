/**
 * The station engine's part for the shift (docs/station.md#productivity-and-the-shift): who is told of
 * the operation calls each input made (the operators' tallies), and the seats whose pending work is
 * kept over an idle sign-out for the next operator (docs/station.md#idle-logout).
 */
import type { Logger } from "pino";
import type { OpCall } from "./seat.types.js";

/** Told of the operation calls an input made at a seat, once they committed (the shift's tally). */
export type WorkWatcher = (seat: string, calls: readonly OpCall[]) => void;

export interface ShiftCore {
  deps: { log: Logger };
  workWatchers: Set<WorkWatcher>;
  /** seats whose operator was signed out for idling with work in hand: the work waits for the next one */
  kept: Set<string>;
}

export function tellWork(core: ShiftCore, seat: string, calls: readonly OpCall[]): void {
  for (const w of core.workWatchers)
    try {
      w(seat, calls);
    } catch (err) {
      core.deps.log.error({ err }, "station engine work watcher failed");
    }
}

/**
 * Whether a seat's pending work survives who is logged in now: with an operator it does (and is no
 * longer kept for anyone); with nobody only when an idle sign-out kept it.
 */
export function keepsWork(core: ShiftCore, seat: string, user: string | null): boolean {
  if (user === null) return core.kept.has(seat);
  core.kept.delete(seat);
  return true;
}
