/** The shift lead's figures and the idle warning on the seat's screen (docs/station.md#productivity-and-the-shift). Pure data. */
import type { Productivity } from "../../../domain/productivity.js";

/** The idle logout as the seat shows it (docs/station.md#idle-logout). */
export type IdleNotice =
  /** the operator with work in hand is signed out at `logoutAt` (epoch ms), `seconds` from the push */
  | { kind: "warning"; logoutAt: number; seconds: number }
  /** `operator` was signed out for idling; the work stays for the next one (until someone logs in) */
  | { kind: "signed_out"; operator: string };

/** What the shell reads for them (state/types.ts merges it into `ScreenInput`). */
export interface ShiftScreenInput {
  /** the shift's view of this seat (station/shift/shift.shell.ts), read by the publisher */
  productivity?: Productivity | null;
  idle?: IdleNotice | null;
}

/** What the seat shows of them (state/types.ts merges it into `ScreenState`). */
export interface ShiftScreenState {
  /** the operator's lines and units an hour (last 15 minutes, session) against the targets; null: nobody */
  productivity: Productivity | null;
  idle: IdleNotice | null;
}
