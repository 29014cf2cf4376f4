import type { RequestRow } from "../../db/requests.repo.js";
import { AppError } from "../../domain/errors.js";
import { isRefusal } from "../../domain/machine.js";
import {
  PUT_STATUS,
  type PutEffect,
  type PutInput,
  type PutState,
  stepPut,
} from "../../domain/put.machine.js";
import { actualContainer } from "../../domain/service-request.view.js";
import { pdfaValues, type RequestContext, toData, viewOf } from "../request-record/request-record.js";
import type { Tx } from "../unit-of-work/unit-of-work.js";

/** One move of the put machine; a refused move is a 409 naming the request's state. */
export function stepPutOrRefuse(row: RequestRow, input: PutInput): { state: PutState; effects: PutEffect[] } {
  const s = stepPut(row.state as PutState, input);
  if (isRefusal(s)) {
    throw new AppError("invalid_state", s.error.reason, [
      { path: "externalServiceRequestId", message: `put request is ${row.state}` },
    ]);
  }
  return s;
}

/** The put_information of a `notify` effect: the SR as it is, with what that state adds. */
function putInformation(
  ctx: RequestContext,
  next: RequestRow,
  e: Extract<PutEffect, { kind: "notify" }>,
  exceptionIds: number[] | undefined,
): Record<string, unknown> {
  const view = viewOf(next, ctx);
  if (e.state === "put_transaction") {
    const mine = toData(next, [], ctx).actuals.filter((a) => exceptionIds?.includes(a.id));
    return { ...view, state: "put_transaction", actuals: { containers: mine.map(actualContainer) } };
  }
  if (e.state === "stage_failure") {
    return {
      ...view,
      state: "stage_failure",
      attributes: { ...(view.attributes ?? {}), alert_data: e.alerts ?? [] },
    };
  }
  return { ...view, state: e.state };
}

/** Writes the new state and carries out the effects in order (notifications show the SR as it is). */
export function applyPutEffects(
  ctx: RequestContext,
  row: RequestRow,
  step: { state: PutState; effects: PutEffect[] },
  tx: Tx,
  extra: { exceptionIds?: number[] } = {},
): RequestRow {
  let next: RequestRow = { ...row, state: step.state, status: PUT_STATUS[step.state], updatedOn: tx.now };
  ctx.requests.update(next);
  for (const e of step.effects) {
    if (e.kind === "free_bin" && next.binId) {
      ctx.station.setBin(next.binId, "empty", "none", tx.now);
      next = { ...next, binId: null };
      ctx.requests.update(next);
      tx.announce("station", {});
    } else if (e.kind === "notify") {
      tx.notify("put_information", putInformation(ctx, next, e, extra.exceptionIds));
    }
  }
  tx.announce("request", { type: "PUT", externalServiceRequestId: next.externalId });
  return next;
}

/** An actual container of the put: what was put where (or found wrong), and by whom. */
export function recordPutActual(
  ctx: RequestContext,
  row: RequestRow,
  actual: { itemId: number; state: string; quantity: number; location: string | null },
  actor: object,
  tx: Tx,
): number {
  const id = ctx.requests.nextEntityId("container");
  ctx.requests.insertActual({
    id,
    requestId: row.id,
    lineId: null,
    state: actual.state,
    location: actual.location,
    itemId: actual.itemId,
    quantity: actual.quantity,
    productJson: JSON.stringify({
      pdfa_values: pdfaValues(ctx, actual.itemId),
      package_name: "each",
      package_count: actual.quantity,
    }),
    productId: ctx.requests.nextEntityId("product"),
    contextJson: JSON.stringify(actor),
    createdOn: tx.now,
  });
  return id;
}
