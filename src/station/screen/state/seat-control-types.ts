/** What central or a supervisor told the seat (docs/station.md#pausing-a-seat): its pause and message. Pure data. */
import type { PauseSource } from "../../../domain/seat-pause.js";

/** Why the seat is paused: each source holding it, who or what, and the reason. */
export interface SeatPause {
  sources: Array<{ kind: PauseSource["kind"]; by: string; reason: string; since: string }>;
  /** a supervisor may resume it here: central or a supervisor paused it (an input clears by itself) */
  resumable: boolean;
}

/** A message for the operator, shown until acknowledged. */
export interface SeatMessage {
  id: number;
  text: string;
  by: string;
  sentAt: string;
}

/** What the shell reads for them (state/types.ts merges it into `ScreenInput`). */
export interface SeatControlScreenInput {
  /** the sources holding this seat paused (none: it works) */
  pauses?: readonly PauseSource[];
  /** every paused seat: their work's bins show the pause on this screen too */
  pausedSeats?: ReadonlySet<string>;
  /** the oldest message for this seat not yet acknowledged */
  message?: { id: number; text: string; by: string; sentAt: number } | null;
}

/** What the seat shows of them (state/types.ts merges it into `ScreenState`). */
export interface SeatControlScreenState {
  /** the pause holding the seat, or null (docs/station.md#pausing-a-seat) */
  pause: SeatPause | null;
  /** a message from central for the operator, until acknowledged, or null */
  message: SeatMessage | null;
}
