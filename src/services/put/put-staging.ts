import type { RequestRow } from "../../db/requests.repo.js";
import { AppError } from "../../domain/errors.js";
import type { StageAlert } from "../../domain/put.machine.js";
import type { StagePutInput } from "../../domain/service-request.schema.js";
import { mustFind, operator, parseJson, type RequestContext } from "../request-record.js";
import type { Tx } from "../unit-of-work.js";
import type { PutDeps } from "./put-deps.js";
import { applyPutEffects, stepPutOrRefuse } from "./put-effects.js";

/** Staging a put into a bin (spec: Stage put; docs/architecture.md, put flow). */

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
    if (alerts.length) applyPutEffects(deps, row, stepPutOrRefuse(row, { type: "stage_failed", alerts }), tx);
    else {
      const step = stepPutOrRefuse(row, { type: "stage_succeeded" });
      applyPutEffects(deps, stageInto(deps, row, binId, tx), step, tx);
    }
  }
  return waiting.length;
}

/** "created → put back stage operation → staged": a tote staged at the station itself. */
export function putBackStage(ctx: RequestContext, externalId: string, binId: string, tx: Tx): RequestRow {
  const row = mustFind(ctx, "PUT", externalId);
  const bin = ctx.station.bin(binId);
  if (!bin)
    throw new AppError("not_found", `no bin '${binId}'`, [{ path: "ppsBinId", message: "unknown bin" }]);
  if (bin.state !== "empty")
    throw new AppError("invalid_state", `bin '${binId}' is not empty`, [
      { path: "ppsBinId", message: bin.state },
    ]);
  const step = stepPutOrRefuse(row, { type: "put_back_staged" });
  return applyPutEffects(ctx, stageInto(ctx, row, binId, tx), step, tx);
}
