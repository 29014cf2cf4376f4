/**
 * The last event each seat's screen shows (what one is: event.ts), numbered across the station,
 * and the bin each seat's pending work had lit before the input, which tells whether the input finished
 * that bin (the "complete" tone).
 */
import type { BinView } from "../../bin-lights.js";
import { pendingBin } from "../../seat.machine.js";
import type { SeatState } from "../../seat.types.js";
import { REFUSAL_KEYS } from "../messages/messages.js";
import { type EventResult, lastEventOf, type ScreenEventInput } from "./event.js";
import type { LastEvent } from "./types.js";

export function createLastEvents(deps: { seats: readonly string[]; now: () => number }) {
  const events = new Map<string, LastEvent>();
  const pending = new Map<string, string | null>();
  let seq = 0;

  return {
    of: (seat: string): LastEvent | null => events.get(seat) ?? null,

    /**
     * Records what a seat (or, for a bin nobody had lit, every seat) just did, given the seats and the
     * bins after the input; then notes the bin each seat's pending work lights now.
     */
    record(
      seat: string | null,
      input: ScreenEventInput,
      outcome: EventResult,
      seatsAfter: ReadonlyMap<string, SeatState>,
      binsAfter: readonly BinView[],
    ): void {
      const seats = seat === null ? deps.seats : [seat];
      for (const s of seats) {
        const event = lastEventOf({
          seq: seq + 1,
          at: deps.now(),
          input,
          outcome,
          binBefore: pending.get(s) ?? null,
          binsAfter,
          knownReasons: REFUSAL_KEYS,
        });
        if (event) {
          seq = event.seq;
          events.set(s, event);
        }
      }
      for (const [s, st] of seatsAfter) pending.set(s, pendingBin(st));
    },
  };
}
