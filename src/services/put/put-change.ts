import type { RequestRow } from "../../db/requests.repo.js";
import { AppError } from "../../domain/errors.js";
import { createPut as initialPut, PUT_STATUS } from "../../domain/put.machine.js";
import type { PutCreateInput, PutModifyInput } from "../../domain/service-request.schema.js";
import { mustFind, type RequestContext, viewOf } from "../request-record/request-record.js";
import type { Tx } from "../unit-of-work/unit-of-work.js";
import { applyPutEffects, stepPutOrRefuse } from "./put-effects.js";
import { resolveExpectations, type StoredExpectations } from "./put-expectations.js";
import { isStaging } from "./put-staging.js";

/** Put requests from the service-request endpoints (spec: Put request): create, cancel, modify. */

/**
 * A new put in state created, each expected product resolved to one known item (`resolveExpectations`,
 * checked before anything is written); null when a PUT request with this id exists (nothing written).
 */
export function createPut(
  ctx: RequestContext,
  input: PutCreateInput,
  expectations: StoredExpectations,
  requestJson: string,
  tx: Tx,
): ReturnType<typeof viewOf> | null {
  const start = initialPut();
  const fresh: Omit<RequestRow, "id"> = {
    externalId: input.externalServiceRequestId,
    type: "PUT",
    state: start.state,
    status: PUT_STATUS[start.state],
    requestJson,
    attributesJson: JSON.stringify(input.attributes ?? null),
    expectationsJson: JSON.stringify(expectations),
    isPack: 0,
    binId: null,
    priorityRank: 2,
    pickBefore: null,
    pickAfter: null,
    executionJson: null,
    receivedOn: tx.now,
    createdOn: tx.now,
    updatedOn: tx.now,
    stateClearedOn: null,
  };
  const id = ctx.requests.insertUnlessTaken(fresh);
  if (id === null) return null;
  tx.announce("request", { type: "PUT", externalServiceRequestId: fresh.externalId });
  return viewOf({ id, ...fresh }, ctx, { lines: [], actuals: [] });
}

/**
 * Cancel (synchronous for PUT): "Modify and cancel of a put request are allowed only in state
 * `created`". A put being staged or staged is refused (409 naming its state) and keeps its bin: its tote
 * stands there, so the bin is not free. The operator empties the bin or releases the tote (which
 * withdraws the staging, rule 5), and the put can then be cancelled (docs/decisions.md).
 */
export function cancelPut(ctx: RequestContext, externalId: string, tx: Tx): RequestRow {
  const row = mustFind(ctx, "PUT", externalId);
  if (row.state !== "created") {
    const hint = isStaging(row) ? ": its tote is in a bin; empty the bin or release the tote first" : "";
    throw new AppError(
      "invalid_state",
      `put '${externalId}' is ${row.state}: a put is cancelled only in state created${hint}`,
      [{ path: "externalServiceRequestId", message: `put request is ${row.state}, not created` }],
      { state: row.state },
    );
  }
  return applyPutEffects(ctx, row, stepPutOrRefuse(row, { type: "cancel" }), tx);
}

/** Modify (synchronous for PUT): attributes and expectations of a put in state created. */
export function modifyPut(ctx: RequestContext, input: PutModifyInput, tx: Tx): RequestRow {
  const row = mustFind(ctx, "PUT", input.externalServiceRequestId);
  const step = stepPutOrRefuse(row, { type: "modify" });
  const next = {
    ...row,
    attributesJson: input.attributes !== undefined ? JSON.stringify(input.attributes) : row.attributesJson,
    expectationsJson: input.expectations
      ? JSON.stringify(resolveExpectations(ctx, input.expectations))
      : row.expectationsJson,
  };
  return applyPutEffects(ctx, next, step, tx);
}
