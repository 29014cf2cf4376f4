/** Results of the seat machine's steps: a move (new state, operation calls, what the input was taken as) or a refusal. */
import type { ExceptionCode } from "./scan-codes.js";
import type { OpCall, RefusalReason, Resolved, SeatState, SeatStep } from "./seat.types.js";

export function refused(reason: RefusalReason, message: string, as?: Resolved["as"]): SeatStep {
  return as === undefined ? { ok: false, reason, message } : { ok: false, reason, message, as };
}

export function moved(
  state: SeatState,
  calls: OpCall[],
  as: Resolved["as"],
  did: string,
  code?: ExceptionCode,
): SeatStep {
  return { ok: true, state, calls, resolved: code ? { as, did, code } : { as, did } };
}
