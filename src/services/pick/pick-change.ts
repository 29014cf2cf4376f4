import type { RequestRow } from "../../db/requests.repo.js";
import { isRefusal } from "../../domain/machine.js";
import { type PickState, stepPick } from "../../domain/pick.machine.js";
import { stepPickLine } from "../../domain/pick-line.machine.js";
import type { PickLineInput, PickModifyInput } from "../../domain/service-request.schema.js";
import { mustFind, type RequestContext } from "../request-record.js";
import type { Tx } from "../unit-of-work.js";
import { allocatePick } from "./pick-allocation.js";
import { announceHeld, checkLines, insertLines, isPack, scheduling } from "./pick-create.js";
import { lineState, type PickDeps } from "./pick-deps.js";
import { applyPickEffects, assignBins, checkBin } from "./pick-effects.js";

/** order_modification, written before the order_information that follows it (emission rule 1). */
function modification(
  ctx: RequestContext,
  row: RequestRow,
  change: { kind: "cancel" | "modify"; body: unknown },
  outcome: { state: "success" | "failure"; reason?: string },
  tx: Tx,
): number {
  const id = ctx.requests.insertTransaction(
    row.id,
    change.kind,
    JSON.stringify(change.body),
    outcome.state,
    tx.now,
  );
  tx.notify("order_modification", {
    state: outcome.state,
    id,
    externalServiceRequestId: row.externalId,
    type: "PICK",
    action: change.kind,
    ...(outcome.reason ? { reason: outcome.reason } : {}),
  });
  return id;
}

/** Moves every line of the request that accepts `type`; the others keep their state. */
function stepLines(ctx: RequestContext, requestId: number, type: "cancel" | "reset", tx: Tx): void {
  for (const l of ctx.requests.lines(requestId)) {
    const ls = stepPickLine(lineState(l), { type });
    if (!isRefusal(ls)) ctx.requests.updateLine({ ...l, state: ls.state.state, updatedOn: tx.now });
  }
}

/**
 * Cancel (spec: cancel is asynchronous for PICK): answered with the id of the order_modification that
 * says whether it succeeded; a refused cancel is a `failure` modification, not an error.
 */
export function cancelPick(deps: PickDeps, externalId: string, body: unknown, tx: Tx): number {
  const row = mustFind(deps, "PICK", externalId);
  const change = { kind: "cancel", body } as const;
  const step = stepPick(row.state as PickState, { type: "cancel", transaction: "" });
  if (isRefusal(step))
    return modification(deps, row, change, { state: "failure", reason: step.error.reason }, tx);
  const txId = modification(deps, row, change, { state: "success" }, tx);
  stepLines(deps, row.id, "cancel", tx);
  const next = applyPickEffects(deps, row, step, tx);
  if (next.binId) checkBin(deps, next.binId, tx);
  return txId;
}

/** Modify (asynchronous like cancel): the request is released, changed and allocated again. */
export function modifyPick(deps: PickDeps, input: PickModifyInput, body: unknown, tx: Tx): number {
  const row = mustFind(deps, "PICK", input.externalServiceRequestId);
  if (input.serviceRequests) checkLines(deps, input.serviceRequests);
  const sched = input.attributes !== undefined ? scheduling(input.attributes, deps.timeZone) : undefined;
  const change = { kind: "modify", body } as const;
  const step = stepPick(row.state as PickState, { type: "modify", transaction: "" });
  if (isRefusal(step))
    return modification(deps, row, change, { state: "failure", reason: step.error.reason }, tx);
  const txId = modification(deps, row, change, { state: "success" }, tx);
  // Release what was reserved before the lines are replaced (release reads the current lines).
  const effects = step.effects.filter((e) => e.kind !== "notify");
  let next = applyPickEffects(deps, row, { state: step.state, effects }, tx);
  replaceLines(deps, row.id, input.serviceRequests, tx);
  next = {
    ...next,
    attributesJson: input.attributes !== undefined ? JSON.stringify(input.attributes) : next.attributesJson,
    isPack: input.serviceRequests ? (isPack(input.serviceRequests) ? 1 : 0) : next.isPack,
    ...(sched ?? {}),
  };
  deps.requests.update(next);
  if (sched) announceHeld(sched, tx);
  next = allocatePick(deps, next, tx);
  if (next.state === "not_fulfillable" && next.binId) {
    deps.station.setBin(next.binId, "empty", "none", tx.now);
    deps.requests.update({ ...next, binId: null });
    assignBins(deps, tx);
  }
  return txId;
}

/** New lines replace the old ones; without new lines the old ones start over. */
function replaceLines(
  ctx: RequestContext,
  requestId: number,
  lines: PickLineInput[] | undefined,
  tx: Tx,
): void {
  if (!lines) {
    stepLines(ctx, requestId, "reset", tx);
    return;
  }
  ctx.requests.deleteLines(requestId);
  insertLines(ctx, requestId, lines, tx);
}
