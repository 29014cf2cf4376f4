/**
 * The screen's taps about what central or a supervisor told the seat (docs/station.md#pausing-a-seat):
 * a supervisor pauses or resumes the seat, the operator acknowledges a message. While the seat is
 * paused every other tap is refused (`seat_paused`), as every scan is (station engine).
 */
import { AppError, isAppError } from "../../domain/errors.js";
import type { Outcome } from "../engine.js";

export type SeatControlAction =
  | { type: "pause"; reason: string }
  | { type: "resume" }
  | { type: "acknowledge"; id: number };

/** The taps a paused seat still takes. */
const WHILE_PAUSED = new Set(["pause", "resume", "acknowledge"]);

export interface SeatControlTaps {
  pause(seat: string, kind: "supervisor", by: string, reason: string): unknown;
  resume(seat: string, kind: "supervisor", by: string): unknown;
  acknowledge(seat: string, id: number, user: string | null): void;
  pausedSeats(): ReadonlySet<string>;
}

export interface SeatControlActionDeps {
  control: SeatControlTaps;
  user(seat: string): string | null;
  record(seat: string, input: { kind: "tap"; text: string }, outcome: Outcome): void;
}

/** A tap refused because the seat is paused, or null when it may go on. */
export function pausedTap(deps: SeatControlActionDeps, seat: string, type: string): Outcome | null {
  if (WHILE_PAUSED.has(type) || !deps.control.pausedSeats().has(seat)) return null;
  const out: Outcome = { seat, result: "refused", reason: "seat_paused", message: `seat ${seat} is paused` };
  deps.record(seat, { kind: "tap", text: type }, out);
  return out;
}

/** Pause, resume or acknowledge; `by` is who is signed in on the screen (a supervisor), if anyone. */
export function seatControlTap(
  deps: SeatControlActionDeps,
  seat: string,
  a: SeatControlAction,
  by: string | null,
): Outcome {
  const who = by ?? "supervisor";
  const [text, did, run] =
    a.type === "pause"
      ? [a.reason, "seat_paused", () => deps.control.pause(seat, "supervisor", who, a.reason)]
      : a.type === "resume"
        ? ["", "seat_resumed", () => deps.control.resume(seat, "supervisor", who)]
        : [
            String(a.id),
            "message_acknowledged",
            () => deps.control.acknowledge(seat, a.id, deps.user(seat) ?? by),
          ];
  let out: Outcome;
  try {
    run();
    out = { seat, result: "done", did };
  } catch (err) {
    if (!isAppError(err) || err.kind === "unavailable") throw err;
    out = { seat, result: "refused", reason: err.code, message: err.message };
  }
  deps.record(seat, { kind: "tap", text }, out);
  return out;
}

/** For a caller without the seat-control door (a test double): the taps are not available. */
export const NO_SEAT_CONTROL: SeatControlTaps = {
  pause: () => {
    throw new AppError("not_ready", "pausing is not available here");
  },
  resume: () => {
    throw new AppError("not_ready", "pausing is not available here");
  },
  acknowledge: () => {
    throw new AppError("not_ready", "messages are not available here");
  },
  pausedSeats: () => new Set(),
};
