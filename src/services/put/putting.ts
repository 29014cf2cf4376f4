import type { RequestRow } from "../../db/requests.repo.js";
import { AppError } from "../../domain/errors.js";
import { itemRefOf, type PutExceptionInput, type PutTransactionInput } from "../../domain/station.schema.js";
import { mustFind, operatorIn, parseJson, type RequestContext } from "../request-record/request-record.js";
import type { Tx } from "../unit-of-work/unit-of-work.js";
import type { PutDeps } from "./put-deps.js";
import { applyPutEffects, recordPutActual, stepPutOrRefuse } from "./put-effects.js";
import { EXCESS, itemFor, progress } from "./put-expectations.js";
import { isStaging, withdrawStaging } from "./put-staging.js";

/** The operator's put transactions, exceptions and the tote's release (docs/architecture.md#put). */

function moreThanExpected(quantity: number, left: number): AppError {
  return new AppError("validation_failed", `quantity ${quantity} is more than the ${left} expected`, [
    { path: "quantity", message: `at most ${left}` },
  ]);
}

/**
 * The operator of this transaction becomes the request's `pps_seat_name` and `user_name`, so the
 * put_information it causes names who put or found the exception (rule 4: "attributes give user_name,
 * pps_id, pps_seat_name"), as a pick transaction does for order_information.
 */
function actedBy(row: RequestRow, actor: { user_name: string; pps_seat_name: string }): RequestRow {
  const exec = { ...(parseJson<Record<string, unknown>>(row.executionJson) ?? {}), ...actor };
  return { ...row, executionJson: JSON.stringify(exec) };
}

/** One put transaction: items from the tote into a slot of a presented rack. */
export function recordPut(deps: PutDeps, input: PutTransactionInput, tx: Tx): RequestRow {
  const op = operatorIn(deps, "put", input.seat);
  const row = mustFind(deps, "PUT", input.externalServiceRequestId);
  const { itemId, sku } = itemFor(deps, row, itemRefOf(input));
  const loc = deps.stock.location(input.location);
  if (!loc || !deps.stock.isPresented(input.location)) {
    throw new AppError("invalid_state", `slot '${input.location}' is not on a rack at the station`, [
      { path: "location", message: "present its rack first" },
    ]);
  }
  const p = progress(deps, row);
  const left = p.left(itemId);
  if (row.state === "staged" && input.quantity > left) throw moreThanExpected(input.quantity, left);
  const s = stepPutOrRefuse(row, {
    type: "put_transaction",
    productSku: sku,
    location: input.location,
    itemId: String(itemId),
    quantity: input.quantity,
    finished: p.total - input.quantity === 0,
  });
  deps.stock.add(input.location, itemId, input.quantity);
  const actual = {
    itemId,
    state: "complete",
    quantity: input.quantity,
    location: input.location,
  };
  const actor = { user_name: op.user, pps_seat_name: op.seat };
  recordPutActual(deps, row, actual, actor, tx);
  const effects = s.effects.filter((e) => e.kind !== "add" && e.kind !== "record_actual");
  return applyPutEffects(deps, actedBy(row, actor), { state: s.state, effects }, tx);
}

/** Items found wrong (damaged, missing, excess…): recorded as actuals with that state (spec: put states). */
export function recordPutException(deps: PutDeps, input: PutExceptionInput, tx: Tx): RequestRow {
  const op = operatorIn(deps, "put", input.seat);
  const row = mustFind(deps, "PUT", input.externalServiceRequestId);
  const { itemId, sku } = itemFor(deps, row, itemRefOf(input));
  const p = progress(deps, row);
  const excess = EXCESS.includes(input.reason);
  const left = p.left(itemId);
  if (row.state === "staged" && !excess && input.quantity > left)
    throw moreThanExpected(input.quantity, left);
  const s = stepPutOrRefuse(row, {
    type: "put_exception",
    productSku: sku,
    state: input.reason,
    quantity: input.quantity,
    finished: p.total - (excess ? 0 : input.quantity) === 0,
  });
  const actual = {
    itemId,
    state: input.reason,
    quantity: input.quantity,
    location: null,
  };
  const actor = { user_name: op.user, pps_seat_name: op.seat };
  const id = recordPutActual(deps, row, actual, actor, tx);
  const effects = s.effects.filter((e) => e.kind !== "record_actual");
  return applyPutEffects(deps, actedBy(row, actor), { state: s.state, effects }, tx, { exceptionIds: [id] });
}

/**
 * The tote (or roll cage) of a complete put is released: its bin is free. A tote released before its
 * first put transaction withdraws the staging instead (rule 5: stage_cancelled, back to created).
 */
export function releasePut(ctx: RequestContext, externalId: string, tx: Tx): RequestRow {
  const row = mustFind(ctx, "PUT", externalId);
  if (isStaging(row)) return withdrawStaging(ctx, row, tx);
  return applyPutEffects(ctx, row, stepPutOrRefuse(row, { type: "release" }), tx);
}
