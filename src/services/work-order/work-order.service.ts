import type { RequestRow } from "../../db/requests.repo.js";
import {
  isOverdue,
  isReleased,
  orderWork,
  type PickWork,
  SIMPLE_PRIORITIES,
} from "../../domain/work-order.js";
import type { RequestContext } from "../request-record/request-record.js";

/**
 * The station's work order (docs/architecture.md#pick; the rules are domain/work-order.ts): which pick request
 * gets the next free bin and the next lock, what the screen's pick queue shows, and when work held back
 * by pick_after_time is released. Its door: pick and the station read the order here.
 */

/** A pick request as work to order, carrying its row. */
export function workOf(r: RequestRow): PickWork & { row: RequestRow } {
  return {
    id: r.externalId,
    sequence: r.id,
    priority: SIMPLE_PRIORITIES[r.priorityRank] ?? "normal",
    pickBeforeMs: r.pickBefore,
    pickAfterMs: r.pickAfter,
    row: r,
  };
}

/** Rows in work order, leaving out work still held back at `now` and work past its pick_before_time. */
export function inWorkOrder(rows: RequestRow[], now: number): Array<PickWork & { row: RequestRow }> {
  return orderWork(
    rows.map(workOf).filter((w) => !isOverdue(w, now)),
    now,
  );
}

/** Active picks in work order, and those held back until their pick_after_time (GET /station/state). */
export function pickQueue(ctx: RequestContext, now: number) {
  const active = ctx.requests.byStates("PICK", ["fulfillable", "cancellation_locked", "pick_started"]);
  return {
    queue: inWorkOrder(active, now).map((w) => ({
      externalServiceRequestId: w.id,
      state: w.row.state,
      priority: w.priority,
      ppsBinId: w.row.binId,
    })),
    heldBack: active
      .filter((r) => !isReleased(workOf(r), now))
      .map((r) => ({
        externalServiceRequestId: r.externalId,
        pickAfter: new Date(r.pickAfter ?? 0).toISOString(),
      })),
  };
}

/** The earliest pick_after_time still ahead among waiting picks: when the scheduler releases work next. */
export function nextHeldRelease(ctx: RequestContext, now: number): number | null {
  return ctx.requests.nextHeldRelease(now);
}
