import { z } from "zod";
import type { RequestRow } from "../../db/requests.repo.js";
import { AppError } from "../../domain/errors.js";
import { isRefusal } from "../../domain/machine.js";
import { type PickState, stepPick } from "../../domain/pick.machine.js";
import { stepPickLine } from "../../domain/pick-line.machine.js";
import { type LinePatch, mergeAttributes, mergeLines } from "../../domain/pick-modify.js";
import { isPickPack } from "../../domain/pick-pack.js";
import { type PickModifyInput, pickAttributesSchema } from "../../domain/service-request.schema.js";
import { validate } from "../../domain/validate.js";
import { mustFind, parseJson, type RequestContext } from "../request-record/request-record.js";
import type { Tx } from "../unit-of-work/unit-of-work.js";
import { allocatePick } from "./pick-allocation.js";
import { announceHeld, checkFilters, checkLineCount, insertLines, scheduling } from "./pick-create.js";
import { lineState, type PickDeps } from "./pick-deps.js";
import { applyPickEffects, assignBins, checkBin } from "./pick-effects.js";
import { checkOlpns } from "./pick-olpn.js";

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

/** Modify (asynchronous like cancel): a partial update (pick-modify.ts), then allocated again. */
export function modifyPick(deps: PickDeps, input: PickModifyInput, body: unknown, tx: Tx): number {
  const row = mustFind(deps, "PICK", input.externalServiceRequestId);
  const plan = planModify(deps, row, input);
  const change = { kind: "modify", body } as const;
  const step = stepPick(row.state as PickState, { type: "modify", transaction: "" });
  if (isRefusal(step))
    return modification(deps, row, change, { state: "failure", reason: step.error.reason }, tx);
  const txId = modification(deps, row, change, { state: "success" }, tx);
  // Release what was reserved before the lines change (release reads the current lines).
  const effects = step.effects.filter((e) => e.kind !== "notify");
  let next = applyPickEffects(deps, row, { state: step.state, effects }, tx);
  writeLines(deps, row.id, plan, tx);
  next = {
    ...next,
    attributesJson: JSON.stringify(plan.attributes),
    isPack: isPickPack(plan.lines, deps.pick.packAttributes) ? 1 : 0,
    ...plan.sched,
  };
  deps.requests.update(next);
  announceHeld(plan.sched, tx);
  const hadBin = next.binId;
  next = allocatePick(deps, next, tx);
  // A request that no longer waits for picking in its bin freed it (pick-allocation.ts): the next in line takes it.
  if (hadBin && !next.binId) assignBins(deps, tx);
  return txId;
}

/** The modify's outcome, checked before anything is written: a 400 for bad data (spec "Modify pick"). */
function planModify(deps: PickDeps, row: RequestRow, input: PickModifyInput) {
  const stored = deps.requests.lines(row.id);
  const patches: LinePatch[] = (input.serviceRequests ?? []).map((l) => {
    const product = l.expectations?.containers[0]?.products[0];
    return {
      externalId: l.externalServiceRequestId,
      quantity: product?.productQuantity,
      filters: product?.productAttributes?.filter_parameters,
      attributes: l.attributes,
    };
  });
  checkFilters(
    deps,
    patches.map((p) => ({ id: p.externalId, filters: p.filters })),
  );
  checkOlpns(deps, patches, row.isPack === 1);
  const merged = mergeLines(
    stored.map((l) => ({
      externalId: l.externalId,
      expected: l.expected,
      filters: JSON.parse(l.filtersJson) as string[],
      attributes: parseJson<Record<string, unknown>>(l.attributesJson),
    })),
    input.serviceRequests ? patches : undefined,
  );
  if (!merged.ok)
    throw new AppError("validation_failed", `${merged.errors[0]?.path}: ${merged.errors[0]?.message}`, [
      ...merged.errors,
    ]);
  checkLineCount(deps.pick, merged.lines.length);
  const attributes = mergeAttributes(parseJson(row.attributesJson), input.attributes);
  const checked = validate(z.object({ attributes: pickAttributesSchema }), { attributes });
  return {
    stored,
    lines: merged.lines,
    removed: merged.removed,
    attributes,
    sched: scheduling(checked.attributes, deps.timeZone),
  };
}

/** Changed lines are revised in place, new ones added after the others, removed ones deleted. */
function writeLines(deps: PickDeps, requestId: number, plan: ReturnType<typeof planModify>, tx: Tx): void {
  for (const l of plan.stored) {
    if (plan.removed.includes(l.externalId)) deps.requests.deleteLine(l.id);
  }
  const byId = new Map(plan.stored.map((l) => [l.externalId, l]));
  for (const p of plan.lines.filter((l) => l.origin === "changed")) {
    const l = byId.get(p.externalId);
    if (!l) continue;
    deps.requests.reviseLine({
      ...l,
      expected: p.expected,
      filtersJson: JSON.stringify(p.filters),
      attributesJson: JSON.stringify(p.attributes),
      updatedOn: tx.now,
    });
  }
  stepLines(deps, requestId, "reset", tx);
  const added = plan.lines.filter((l) => l.origin === "added");
  const last = Math.max(-1, ...plan.stored.map((l) => l.position));
  insertLines(
    deps,
    requestId,
    added.map((a) => ({
      externalServiceRequestId: a.externalId,
      type: "PICK_LINE" as const,
      expectations: {
        containers: [
          {
            products: [{ productQuantity: a.expected, productAttributes: { filter_parameters: a.filters } }],
          },
        ],
      },
      attributes: a.attributes,
    })),
    tx,
    last + 1,
  );
}
