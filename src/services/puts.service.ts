import type { RequestRow } from "../db/requests.repo.js";
import type { StockRepo } from "../db/stock.repo.js";
import { AppError, type FieldError } from "../domain/errors.js";
import { isRefusal } from "../domain/machine.js";
import {
  createPut,
  PUT_STATUS,
  type PutEffect,
  type PutExceptionState,
  type PutInput,
  type PutState,
  type StageAlert,
  stepPut,
} from "../domain/put.machine.js";
import type { PutCreateInput, PutModifyInput } from "../domain/service-request.schema.js";
import { actualContainer, type PutExpectations } from "../domain/service-request.view.js";
import {
  mustFind,
  operator,
  parseJson,
  pdfaValues,
  type RequestContext,
  toData,
  viewOf,
} from "./requests.support.js";
import type { Tx } from "./tx.js";

/** Expectations as stored: the view's shape plus the item each product resolved to. */
interface StoredExpectations extends PutExpectations {
  containers: Array<{
    id: number;
    products: Array<{
      id: number;
      productQuantity: number;
      productAttributes: Record<string, unknown>;
      itemId: number;
      sku: string;
    }>;
  }>;
}

/** Excess items are extra: they do not settle expected quantity (spec: put container states). */
const EXCESS: readonly string[] = ["back_excess_entities", "front_excess_entities"];

/** Put requests: create, cancel, modify, staging, put transactions and exceptions, release. */
export function createPutsService(ctx: RequestContext, stock: StockRepo, stagingWithLogout: boolean) {
  /** Every expected product must name one known item (its unique attributes in pdfa_values). */
  function resolve(tx: Tx, expectations: PutCreateInput["expectations"]): StoredExpectations {
    const errors: FieldError[] = [];
    const containers = expectations.containers.map((c, i) => ({
      id: ctx.requests.nextEntityId("container"),
      products: c.products.map((p, j) => {
        const values = p.productAttributes.pdfa_values as Record<string, unknown>;
        let ids = ctx.items.idsByKey("product_sku", values.product_sku as string, -1);
        for (const [k, v] of Object.entries(values)) {
          if (k === "product_sku" || !ctx.items.isKnownKey(k)) continue;
          ids = ids.filter((id) => ctx.items.hasKey(id, k, typeof v === "string" ? v : JSON.stringify(v)));
        }
        const path = `expectations.containers.${i}.products.${j}.productAttributes.pdfa_values`;
        if (ids.length !== 1) {
          errors.push({
            path,
            message: ids.length ? `matches ${ids.length} items; add their unique attributes` : "no such item",
          });
        }
        return {
          id: ctx.requests.nextEntityId("product"),
          productQuantity: p.productQuantity,
          productAttributes: p.productAttributes as Record<string, unknown>,
          itemId: ids[0] ?? 0,
          sku: values.product_sku as string,
        };
      }),
    }));
    if (errors.length)
      throw new AppError("validation_failed", `${errors[0]?.path}: ${errors[0]?.message}`, errors);
    void tx;
    return { containers };
  }

  function expectationsOf(row: RequestRow): StoredExpectations {
    return parseJson<StoredExpectations>(row.expectationsJson) ?? { containers: [] };
  }

  /** Quantity still to handle for a SKU, and whether the whole put is then handled. */
  function progress(row: RequestRow) {
    const expected = new Map<string, number>();
    for (const c of expectationsOf(row).containers) {
      for (const p of c.products) expected.set(p.sku, (expected.get(p.sku) ?? 0) + p.productQuantity);
    }
    const handled = new Map<string, number>();
    for (const a of ctx.requests.actuals(row.id)) {
      if (EXCESS.includes(a.state)) continue;
      const sku =
        (JSON.parse(a.productJson) as { pdfa_values?: { product_sku?: string } }).pdfa_values?.product_sku ??
        "";
      handled.set(sku, (handled.get(sku) ?? 0) + a.quantity);
    }
    const left = (sku: string) => (expected.get(sku) ?? 0) - (handled.get(sku) ?? 0);
    const total = [...expected.keys()].reduce((n, sku) => n + left(sku), 0);
    return { expected, left, total };
  }

  function step(row: RequestRow, input: PutInput) {
    const s = stepPut(row.state as PutState, input);
    if (isRefusal(s)) {
      throw new AppError("invalid_state", s.error.reason, [
        { path: "externalServiceRequestId", message: `put request is ${row.state}` },
      ]);
    }
    return s;
  }

  /** Writes the new state and carries out the effects in order (notifications show the SR as it is). */
  function apply(
    tx: Tx,
    row: RequestRow,
    to: PutState,
    effects: PutEffect[],
    extra: { exceptionIds?: number[] } = {},
  ) {
    let next: RequestRow = { ...row, state: to, status: PUT_STATUS[to], updatedOn: tx.now };
    ctx.requests.update(next);
    for (const e of effects) {
      if (e.kind === "free_bin" && next.binId) {
        ctx.station.setBin(next.binId, "empty", "none", tx.now);
        next = { ...next, binId: null };
        ctx.requests.update(next);
        tx.announce("station", {});
      } else if (e.kind === "notify") {
        const view = viewOf(next, ctx);
        if (e.state === "put_transaction") {
          const mine = toData(next, [], ctx).actuals.filter((a) => extra.exceptionIds?.includes(a.id));
          tx.notify("put_information", {
            ...view,
            state: "put_transaction",
            actuals: { containers: mine.map(actualContainer) },
          });
        } else if (e.state === "stage_failure") {
          tx.notify("put_information", {
            ...view,
            state: "stage_failure",
            attributes: { ...(view.attributes ?? {}), alert_data: e.alerts ?? [] },
          });
        } else {
          tx.notify("put_information", { ...view, state: e.state });
        }
      }
    }
    tx.announce("request", { type: "PUT", externalServiceRequestId: next.externalId });
    return next;
  }

  function record(
    tx: Tx,
    row: RequestRow,
    sku: string,
    itemId: number,
    state: string,
    quantity: number,
    location: string | null,
    actor: object,
  ) {
    const id = ctx.requests.nextEntityId("container");
    ctx.requests.insertActual({
      id,
      requestId: row.id,
      lineId: null,
      state,
      location,
      itemId,
      quantity,
      productJson: JSON.stringify({
        pdfa_values: { product_sku: sku, ...pdfaValues(ctx, itemId) },
        package_name: "each",
        package_count: quantity,
      }),
      productId: ctx.requests.nextEntityId("product"),
      contextJson: JSON.stringify(actor),
      createdOn: tx.now,
    });
    return id;
  }

  function atStation(seat: string | undefined) {
    if (ctx.station.mode() !== "put") {
      throw new AppError("wrong_mode", `the station is in ${ctx.station.mode()} mode`, [
        { path: "mode", message: "putting needs put mode" },
      ]);
    }
    const op = operator(ctx, seat);
    if (!op)
      throw new AppError("not_logged_in", "no operator is logged in", [
        { path: "seat", message: "log in at a seat first" },
      ]);
    return op;
  }

  function itemFor(row: RequestRow, sku: string): number {
    const p = expectationsOf(row)
      .containers.flatMap((c) => c.products)
      .find((x) => x.sku === sku);
    if (!p) {
      throw new AppError("validation_failed", `put '${row.externalId}' expects no product '${sku}'`, [
        { path: "product_sku", message: "not in the request's expectations" },
      ]);
    }
    return p.itemId;
  }

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
      const expectations = resolve(tx, input.expectations);
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
          ? JSON.stringify(resolve(tx, input.expectations))
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

    put(
      tx: Tx,
      input: {
        externalServiceRequestId: string;
        product_sku: string;
        location: string;
        quantity: number;
        seat?: string | undefined;
      },
    ): RequestRow {
      const op = atStation(input.seat);
      const row = mustFind(ctx, "PUT", input.externalServiceRequestId);
      const itemId = itemFor(row, input.product_sku);
      const loc = stock.location(input.location);
      if (!loc || !stock.isPresented(input.location)) {
        throw new AppError("invalid_state", `slot '${input.location}' is not on a rack at the station`, [
          { path: "location", message: "present its rack first" },
        ]);
      }
      const p = progress(row);
      const left = p.left(input.product_sku);
      if (row.state === "staged" && input.quantity > left) {
        throw new AppError(
          "validation_failed",
          `quantity ${input.quantity} is more than the ${left} expected`,
          [{ path: "quantity", message: `at most ${left}` }],
        );
      }
      const s = step(row, {
        type: "put_transaction",
        productSku: input.product_sku,
        location: input.location,
        itemId: String(itemId),
        quantity: input.quantity,
        finished: p.total - input.quantity === 0,
      });
      stock.add(input.location, itemId, input.quantity);
      record(tx, row, input.product_sku, itemId, "complete", input.quantity, input.location, {
        user_name: op.user,
        pps_seat_name: op.seat,
      });
      return apply(
        tx,
        row,
        s.state,
        s.effects.filter((e) => e.kind !== "add" && e.kind !== "record_actual"),
      );
    },

    exception(
      tx: Tx,
      input: {
        externalServiceRequestId: string;
        product_sku: string;
        quantity: number;
        reason: PutExceptionState;
        seat?: string | undefined;
      },
    ): RequestRow {
      const op = atStation(input.seat);
      const row = mustFind(ctx, "PUT", input.externalServiceRequestId);
      const itemId = itemFor(row, input.product_sku);
      const p = progress(row);
      const excess = EXCESS.includes(input.reason);
      const left = p.left(input.product_sku);
      if (row.state === "staged" && !excess && input.quantity > left) {
        throw new AppError(
          "validation_failed",
          `quantity ${input.quantity} is more than the ${left} expected`,
          [{ path: "quantity", message: `at most ${left}` }],
        );
      }
      const finished = p.total - (excess ? 0 : input.quantity) === 0;
      const s = step(row, {
        type: "put_exception",
        productSku: input.product_sku,
        state: input.reason,
        quantity: input.quantity,
        finished,
      });
      const id = record(tx, row, input.product_sku, itemId, input.reason, input.quantity, null, {
        user_name: op.user,
        pps_seat_name: op.seat,
      });
      return apply(
        tx,
        row,
        s.state,
        s.effects.filter((e) => e.kind !== "record_actual"),
        { exceptionIds: [id] },
      );
    },

    release(tx: Tx, externalId: string): RequestRow {
      const row = mustFind(ctx, "PUT", externalId);
      const s = step(row, { type: "release" });
      return apply(tx, row, s.state, s.effects);
    },
  };
}

export type PutsService = ReturnType<typeof createPutsService>;
