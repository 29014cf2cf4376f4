import type { RequestRow } from "../../db/requests.repo.js";
import { AppError } from "../../domain/errors.js";
import type { StageAlert } from "../../domain/put.machine.js";
import type { StagePutInput } from "../../domain/service-request.schema.js";
import { mustFind, operator, parseJson, type RequestContext } from "../request-record/request-record.js";
import type { Tx } from "../unit-of-work/unit-of-work.js";
import type { PutDeps } from "./put-deps.js";
import { applyPutEffects, stepPutOrRefuse } from "./put-effects.js";

/** Staging a put into a bin (spec: Stage put; docs/architecture.md#put). */

/** The staging conditions, as alerts. */
function stagingAlerts(deps: PutDeps, binId: string): StageAlert[] {
  const alerts: StageAlert[] = [];
  const mode = deps.station.mode();
  if (mode !== "put")
    alerts.push({ code: "pps_mode_incorrect", description: `the station is in ${mode} mode, not put` });
  if (!deps.stagingWithLogout && !operator(deps))
    alerts.push({ code: "pps_not_logged_in", description: "no operator is logged in at the station" });
  const bin = deps.station.bin(binId);
  if (bin?.state !== "empty")
    alerts.push({ code: "pps_bin_not_empty", description: `bin ${binId} is not empty` });
  // its light and button serve a trainee now (docs/station.md#bins-of-a-seat)
  if (deps.heldBins?.().has(binId))
    alerts.push({ code: "pps_bin_in_training", description: `bin ${binId} follows a seat in training` });
  return alerts;
}

function stageInto(ctx: RequestContext, row: RequestRow, binId: string, tx: Tx): RequestRow {
  const op = operator(ctx);
  ctx.station.setBin(binId, "put", "none", tx.now);
  const exec = {
    pps_id: ctx.ppsId,
    pps_bin_id: binId,
    pps_seat_name: op?.seat ?? null,
    user_name: op?.user ?? null,
  };
  return { ...row, binId, executionJson: JSON.stringify(exec) };
}

/** The stage call: created → stage_requested; the conditions are checked by `evaluateStaging`. */
export function requestStaging(ctx: RequestContext, input: StagePutInput, tx: Tx): RequestRow {
  const { serviceRequestId, ppsId, ppsBinId: binId } = input;
  if (ppsId !== ctx.ppsId) {
    throw new AppError("validation_failed", `this is station ${ctx.ppsId}, not ${ppsId}`, [
      { path: "ppsId", message: `expected '${ctx.ppsId}'` },
    ]);
  }
  if (!ctx.station.bin(binId))
    throw new AppError("validation_failed", `no bin '${binId}'`, [
      { path: "ppsBinId", message: "unknown bin" },
    ]);
  const row = mustFind(ctx, "PUT", serviceRequestId, "serviceRequestId");
  const step = stepPutOrRefuse(row, { type: "stage_requested" });
  const exec = {
    ...(parseJson<Record<string, unknown>>(row.executionJson) ?? {}),
    pps_id: ctx.ppsId,
    pps_bin_id: binId,
  };
  return applyPutEffects(ctx, { ...row, executionJson: JSON.stringify(exec) }, step, tx);
}

/** stage_requested → staged or stage_failure, for every put waiting (also after a restart). */
export function evaluateStaging(deps: PutDeps, tx: Tx): number {
  const waiting = deps.requests.byStates("PUT", ["stage_requested"]);
  for (const row of waiting) {
    const binId = String(parseJson<Record<string, unknown>>(row.executionJson)?.pps_bin_id ?? "");
    const alerts = stagingAlerts(deps, binId);
    if (alerts.length) {
      applyPutEffects(deps, row, stepPutOrRefuse(row, { type: "stage_failed", alerts }), tx);
      const tote = parseJson<{ tote_id?: unknown } | null>(row.attributesJson)?.tote_id;
      tx.announce("stageFailed", {
        externalServiceRequestId: row.externalId,
        tote: typeof tote === "string" ? tote : null,
        bin: binId,
        codes: alerts.map((a) => a.code),
        mode: deps.station.mode(),
      });
    } else {
      const step = stepPutOrRefuse(row, { type: "stage_succeeded" });
      applyPutEffects(deps, stageInto(deps, row, binId, tx), step, tx);
    }
  }
  return waiting.length;
}

/** "created → put back stage operation → staged": a tote staged at the station itself. */
export function putBackStage(ctx: PutDeps, externalId: string, binId: string, tx: Tx): RequestRow {
  const row = mustFind(ctx, "PUT", externalId);
  const bin = ctx.station.bin(binId);
  if (!bin)
    throw new AppError("not_found", `no bin '${binId}'`, [{ path: "ppsBinId", message: "unknown bin" }]);
  if (bin.state !== "empty")
    throw new AppError("invalid_state", `bin '${binId}' is not empty`, [
      { path: "ppsBinId", message: bin.state },
    ]);
  if (ctx.heldBins?.().has(binId))
    throw new AppError("invalid_state", `bin '${binId}' follows a seat in training`, [
      { path: "ppsBinId", message: "in training" },
    ]);
  const step = stepPutOrRefuse(row, { type: "put_back_staged" });
  return applyPutEffects(ctx, stageInto(ctx, row, binId, tx), step, tx);
}

/** The states in which a put is staged or being staged: the ones a staging can be withdrawn from. */
const STAGING: readonly string[] = ["stage_requested", "staged"];

export function isStaging(row: RequestRow): boolean {
  return row.type === "PUT" && STAGING.includes(row.state);
}

/**
 * Spec rule 5, "cancellation has state stage_cancelled": the staging of a put is withdrawn before its
 * first put transaction (the tote taken back, the bin emptied; leaving put mode only for stagings still requested).
 * The request returns to created and its bin is free. Once a put transaction is recorded the
 * tote holds a partly put expectation: that put must be finished, so the withdrawal is a 409.
 */
export function withdrawStaging(ctx: RequestContext, row: RequestRow, tx: Tx): RequestRow {
  const putsRecorded = ctx.requests.actuals(row.id).length > 0;
  if (putsRecorded) {
    throw new AppError("invalid_state", `put '${row.externalId}' has put transactions: finish it`, [
      { path: "externalServiceRequestId", message: "staging can be withdrawn only before the first put" },
    ]);
  }
  return applyPutEffects(ctx, row, stepPutOrRefuse(row, { type: "stage_cancelled", putsRecorded }), tx);
}

/** The operator empties a bin that holds a staged put: its staging is withdrawn; false for other bins. */
export function withdrawStagingInBin(ctx: RequestContext, binId: string, tx: Tx): boolean {
  const staged = ctx.requests.inBin(binId).filter(isStaging);
  for (const row of staged) withdrawStaging(ctx, row, tx);
  return staged.length > 0;
}

/**
 * The station leaves put mode. A staged put's tote stands in its bin, so the switch is refused (409,
 * naming the bins) until the operator has emptied them or released the totes: a bin is never marked
 * empty while a tote is in it (docs/decisions.md "Leaving put mode with totes in bins"). Stagings still
 * only requested are withdrawn (stage_cancelled): no tote is known to be there yet.
 */
export function withdrawAllStaging(ctx: RequestContext, tx: Tx): void {
  const rows = ctx.requests.byStates("PUT", [...STAGING]);
  const busy = rows.filter((r) => ctx.requests.actuals(r.id).length > 0);
  if (busy.length) {
    throw new AppError("invalid_state", "work in progress in put mode", [
      { path: "mode", message: `finish put '${busy[0]?.externalId}' at the station first` },
    ]);
  }
  const holding = rows.filter((r) => r.state === "staged");
  if (holding.length) {
    const bins = holding.map((r) => r.binId as string);
    throw new AppError(
      "invalid_state",
      `bins ${bins.join(", ")} hold the totes of staged puts: empty them or release the totes first`,
      [{ path: "mode", message: "a bin with a tote in it is not given to other work" }],
      { bins, puts: holding.map((r) => r.externalId) },
    );
  }
  for (const row of rows) withdrawStaging(ctx, row, tx);
}
