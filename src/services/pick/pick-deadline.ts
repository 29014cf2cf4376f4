import type { LineRow, RequestRow } from "../../db/requests.repo.js";
import { isRefusal } from "../../domain/machine.js";
import { type PickState, stepPick } from "../../domain/pick.machine.js";
import { stepPickLine } from "../../domain/pick-line.machine.js";
import { isOverdue } from "../../domain/work-order.js";
import type { Tx } from "../unit-of-work/unit-of-work.js";
import { workOf } from "../work-order/work-order.service.js";
import { lineState, type PickDeps } from "./pick-deps.js";
import { applyPickEffects } from "./pick-effects.js";

/**
 * pick_before_time (docs/interface.md "Pick request": "deadline before which the order must be picked"):
 * a request not yet started when it passes is not started afterwards. It ends not_fulfillable (status
 * FAILED) with its order_information; its stock and bin are released. Critical requests may cross it
 * (spec, `simple_priority`). The scheduler runs this at each deadline (station/work-scheduler.ts).
 */

/** States in which no pick transaction was done yet. */
const NOT_STARTED: readonly PickState[] = ["created", "fulfillable", "cancellation_locked"];

/** Whether this request's deadline has passed at `now` (not critical, not started). */
export function pastDeadline(row: RequestRow, now: number): boolean {
  return NOT_STARTED.includes(row.state as PickState) && isOverdue(workOf(row), now);
}

/** Moves one request past its deadline to not_fulfillable; returns the row as written. */
export function expirePick(
  deps: PickDeps,
  row: RequestRow,
  tx: Tx,
  lines: LineRow[] = deps.requests.lines(row.id),
): RequestRow {
  const step = stepPick(row.state as PickState, { type: "deadline_passed" });
  if (isRefusal(step)) return row;
  for (const l of lines) {
    const ls = stepPickLine(lineState(l), { type: "expire" });
    if (!isRefusal(ls)) deps.requests.updateLine({ ...l, state: ls.state.state, updatedOn: tx.now });
  }
  return applyPickEffects(deps, row, step, tx);
}

/** Every request whose deadline has passed at `tx.now`, in creation order. */
export function expireOverdue(deps: PickDeps, tx: Tx): void {
  for (const row of deps.requests.byStates("PICK", NOT_STARTED)) {
    if (pastDeadline(row, tx.now)) expirePick(deps, row, tx);
  }
}
