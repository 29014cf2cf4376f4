/** Results of the seat machine's steps: a move (new state, actions, what the input was taken as) or a refusal. */
import type { ExceptionCode } from "./scan-codes.js";
import type { RefusalReason, Resolved, SeatAction, SeatState, SeatStep } from "./seat.types.js";

export function refused(reason: RefusalReason, message: string, as?: Resolved["as"]): SeatStep {
  return as === undefined ? { ok: false, reason, message } : { ok: false, reason, message, as };
}

export function moved(
  state: SeatState,
  actions: SeatAction[],
  as: Resolved["as"],
  did: string,
  code?: ExceptionCode,
): SeatStep {
  return { ok: true, state, actions, resolved: code ? { as, did, code } : { as, did } };
}
