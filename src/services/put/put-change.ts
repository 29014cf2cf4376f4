import type { RequestRow } from "../db/requests.repo.js";
import type { StockRepo } from "../db/stock.repo.js";
import { AppError } from "../domain/errors.js";
import { createPut, PUT_STATUS, type StageAlert } from "../domain/put.machine.js";
import type { PutCreateInput, PutModifyInput } from "../domain/service-request.schema.js";
import { createPutSupport } from "./put-support.js";
import { createPuttingService } from "./putting.service.js";
import { mustFind, operator, parseJson, type RequestContext, viewOf } from "./requests.support.js";
import type { Tx } from "./unit-of-work.js";

/** Put requests: create, cancel, modify and staging; the operator's puts are in putting.service.ts. */
export function createPutsService(ctx: RequestContext, stock: StockRepo, stagingWithLogout: boolean) {
  const support = createPutSupport(ctx);
  const { resolve, step, apply } = support;
  /** The staging conditions (spec: Stage put; DESIGN.md §4 Put), as alerts. */
  function stagingAlerts(binId: string): StageAlert[] {
    const alerts: StageAlert[] = [];
    const mode = ctx.station.mode();
    if (mode !== "put")
      alerts.push({ code: "pps_mode_incorrect", description: `the station is in ${mode} mode, not put` });
    if (!stagingWithLogout && !operator(ctx))
      alerts.push({ code: "pps_not_logged_in", description: "no operator is logged in at the station" });
    const bin = ctx.station.bin(binId);
    if (bin?.state !== "empty")
      alerts.push({ code: "pps_bin_not_empty", description: `bin ${binId} is not empty` });
    return alerts;
  }

  function stageInto(tx: Tx, row: RequestRow, binId: string): RequestRow {
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

  return {
    create(tx: Tx, input: PutCreateInput, requestJson: string) {
      const expectations = resolve(input.expectations);
      const start = createPut();
      const id = ctx.requests.insert({
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
      });
      const row = ctx.requests.byId(id) as RequestRow;
      tx.announce("request", { type: "PUT", externalServiceRequestId: row.externalId });
      return viewOf(row, ctx);
    },

    cancel(tx: Tx, externalId: string): RequestRow {
      const row = mustFind(ctx, "PUT", externalId);
      const s = step(row, { type: "cancel" });
      return apply(tx, row, s.state, s.effects);
    },

    modify(tx: Tx, input: PutModifyInput): RequestRow {
      const row = mustFind(ctx, "PUT", input.externalServiceRequestId);
      const s = step(row, { type: "modify" });
      const next = {
        ...row,
        attributesJson:
          input.attributes !== undefined ? JSON.stringify(input.attributes) : row.attributesJson,
        expectationsJson: input.expectations
          ? JSON.stringify(resolve(input.expectations))
          : row.expectationsJson,
      };
      return apply(tx, next, s.state, s.effects);
    },

    /** The stage call: created → stage_requested; the conditions are checked by `evaluateStaging`. */
    requestStaging(tx: Tx, externalId: string, ppsId: string, binId: string): RequestRow {
      if (ppsId !== ctx.ppsId) {
        throw new AppError("validation_failed", `this is station ${ctx.ppsId}, not ${ppsId}`, [
          { path: "ppsId", message: `expected '${ctx.ppsId}'` },
        ]);
      }
      if (!ctx.station.bin(binId))
        throw new AppError("validation_failed", `no bin '${binId}'`, [
          { path: "ppsBinId", message: "unknown bin" },
        ]);
      const row = mustFind(ctx, "PUT", externalId, "serviceRequestId");
      const s = step(row, { type: "stage_requested" });
      const exec = {
        ...(parseJson<Record<string, unknown>>(row.executionJson) ?? {}),
        pps_id: ctx.ppsId,
        pps_bin_id: binId,
      };
      return apply(tx, { ...row, executionJson: JSON.stringify(exec) }, s.state, s.effects);
    },

    /** stage_requested → staged or stage_failure, for every put waiting (also after a restart). */
    evaluateStaging(tx: Tx): number {
      const waiting = ctx.requests.byStates("PUT", ["stage_requested"]);
      for (const row of waiting) {
        const binId = String(parseJson<Record<string, unknown>>(row.executionJson)?.pps_bin_id ?? "");
        const alerts = stagingAlerts(binId);
        if (alerts.length) {
          const s = step(row, { type: "stage_failed", alerts });
          apply(tx, row, s.state, s.effects);
        } else {
          const s = step(row, { type: "stage_succeeded" });
          apply(tx, stageInto(tx, row, binId), s.state, s.effects);
        }
      }
      return waiting.length;
    },

    /** "created → put back stage operation → staged": a tote staged at the station itself. */
    putBackStage(tx: Tx, externalId: string, binId: string): RequestRow {
      const row = mustFind(ctx, "PUT", externalId);
      const bin = ctx.station.bin(binId);
      if (!bin)
        throw new AppError("not_found", `no bin '${binId}'`, [{ path: "ppsBinId", message: "unknown bin" }]);
      if (bin.state !== "empty")
        throw new AppError("invalid_state", `bin '${binId}' is not empty`, [
          { path: "ppsBinId", message: bin.state },
        ]);
      const s = step(row, { type: "put_back_staged" });
      return apply(tx, stageInto(tx, row, binId), s.state, s.effects);
    },

    ...createPuttingService(ctx, stock, support),
  };
}

export type PutsService = ReturnType<typeof createPutsService>;
