/** A unit put wrong after a confirm, corrected at the seat (docs/station.md#undo). Pure data. */
import type { LastConfirmed } from "../../../domain/seat-correction.js";

/** What the shell reads for it (state/types.ts merges it into `ScreenInput`). */
export interface CorrectionScreenInput {
  /** the seat's last confirmed pick or put, while a correction of it may be asked for */
  lastConfirmed?: LastConfirmed | null;
}

/** What a supervisor may correct now, right after a confirm: the page's supervised tap and its choices. */
export type CorrectionOffer =
  /** "Correct the last put": the units recorded in `slot`, really in one of `slots` (the racks at the station) */
  | { kind: "put"; slot: string; quantity: number; slots: string[] }
  /** "A unit went into the wrong bin": the order's own `bin`, the unit in one of `bins` */
  | { kind: "pick"; bin: string; order: string; bins: string[] };

/** What the seat shows of it (state/types.ts merges it into `ScreenState`). */
export interface CorrectionScreenState {
  correction: CorrectionOffer | null;
}
