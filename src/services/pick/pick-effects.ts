import type { RequestRow } from "../db/requests.repo.js";
import type { StockRepo } from "../db/stock.repo.js";
import { PICK_STATUS, type PickEffect, type PickState } from "../domain/pick.machine.js";
import { announceRequest, pdfaValues, type RequestContext, viewOf } from "./requests.support.js";
import type { Tx } from "./unit-of-work.js";

export interface PickEffectHooks {
  /** `check_bin`: the request reached a final state in its bin. */
  checkBin(tx: Tx, binId: string): void;
}

/** Context of an actual container: who did it where (spec: order_information attributes). */
export interface ActualContext {
  user_name?: string;
  pps_seat_name?: string;
}

/**
 * Applies the pick machine's effects in order, inside the caller's transaction. The request row is
 * written first with the new state; each notification shows the state it announces, so a step that
 * emits pick_started then complete shows both (spec: order_information on every state).
 */
export function applyPickEffects(
  tx: Tx,
  ctx: RequestContext,
  stock: StockRepo,
  row: RequestRow,
  to: PickState,
  effects: PickEffect[],
  hooks: PickEffectHooks,
  actor: ActualContext = {},
  /** The item an exception refers to (it has no consume to name it). */
  itemHint: number | null = null,
): RequestRow {
  const next: RequestRow = { ...row, state: to, status: PICK_STATUS[to], updatedOn: tx.now };
  ctx.requests.update(next);
  let consumedItem: number | null = null;
  for (const e of effects) {
    switch (e.kind) {
      case "notify":
        if (e.type === "order_information") {
          tx.notify(
            "order_information",
            viewOf({ ...next, state: e.state, status: PICK_STATUS[e.state] }, ctx),
          );
        }
        // order_modification is written by the cancel/modify use case, which knows the transaction id.
        break;
      case "reserve":
        for (const r of e.reservations) {
          const res = {
            lineId: Number(r.lineId),
            location: r.location,
            itemId: Number(r.itemId),
            quantity: r.quantity,
          };
          ctx.requests.addReservation(res);
          stock.reserve(res.location, res.itemId, res.quantity);
        }
        break;
      case "release":
        for (const r of ctx.requests.reservationsOfRequest(row.id)) {
          stock.reserve(r.location, r.itemId, -r.quantity);
          ctx.requests.setReservation({ ...r, quantity: 0 });
        }
        break;
      case "consume": {
        const lineId = Number(e.lineId);
        const itemId = Number(e.itemId);
        consumedItem = itemId;
        const res = ctx.requests
          .reservationsOfRequest(row.id)
          .find((r) => r.lineId === lineId && r.location === e.location && r.itemId === itemId);
        const fromReservation = Math.min(res?.quantity ?? 0, e.quantity);
        if (res) ctx.requests.setReservation({ ...res, quantity: res.quantity - fromReservation });
        const at = stock.stockAt(e.location, itemId);
        if (at) {
          stock.setQuantity(e.location, itemId, at.quantity - e.quantity);
          stock.reserve(e.location, itemId, -fromReservation);
        }
        break;
      }
      case "record_actual": {
        const lineId = Number(e.lineId);
        const itemId = consumedItem ?? itemHint ?? firstItemOfLine(ctx, row.id, lineId);
        const id = ctx.requests.nextEntityId("container");
        ctx.requests.insertActual({
          id,
          requestId: row.id,
          lineId,
          state: e.state,
          location: e.location ?? null,
          itemId,
          quantity: e.quantity,
          productJson: JSON.stringify({
            pdfa_values: itemId === null ? {} : pdfaValues(ctx, itemId),
            package_name: "each",
            package_count: e.quantity,
          }),
          productId: ctx.requests.nextEntityId("product"),
          contextJson: JSON.stringify(actor),
          createdOn: tx.now,
        });
        break;
      }
      case "check_bin":
        if (next.binId) hooks.checkBin(tx, next.binId);
        break;
      case "allocate":
        // run by the caller (it needs the lines' filters resolved against current stock)
        break;
    }
  }
  announceRequest(tx, ctx, next);
  return next;
}

function firstItemOfLine(ctx: RequestContext, requestId: number, lineId: number): number | null {
  const res = ctx.requests.reservationsOfRequest(requestId).find((r) => r.lineId === lineId);
  if (res) return res.itemId;
  return ctx.requests.actuals(requestId).find((a) => a.lineId === lineId)?.itemId ?? null;
}
