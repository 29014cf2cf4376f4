import type { RequestRow } from "../db/requests.repo.js";
import type { StockRepo } from "../db/stock.repo.js";
import { allocate, type LineDemand } from "../domain/allocation.js";
import { AppError, type FieldError } from "../domain/errors.js";
import { type Filter, parseFilter } from "../domain/filter.js";
import { isRefusal } from "../domain/machine.js";
import { createPick, PICK_STATUS, type PickState, stepPick } from "../domain/pick.machine.js";
import { createPickLine, stepPickLine } from "../domain/pick-line.machine.js";
import {
  PACK_ATTRIBUTES,
  type PickCreateInput,
  type PickLineInput,
  type PickModifyInput,
} from "../domain/service-request.schema.js";
import { parseSpecTimestamp, SIMPLE_PRIORITIES } from "../domain/work-order.js";
import type { BinsService } from "./bins.service.js";
import { applyPickEffects } from "./pick-effects.js";
import { lineState, mustFind, type RequestContext, viewOf } from "./requests.support.js";
import type { Tx } from "./unit-of-work.js";

const FILTER_PATH = (i: number, j: number) =>
  `serviceRequests.${i}.expectations.containers.0.products.0.productAttributes.filter_parameters.${j}`;

interface Scheduling {
  priorityRank: number;
  pickBefore: number | null;
  pickAfter: number | null;
}

/** Pick requests: create with allocation, cancel and modify (spec: Pick request, Endpoints). */
export function createPicksService(
  ctx: RequestContext,
  stock: StockRepo,
  bins: BinsService,
  timeZone: string,
) {
  /** Filters must parse and name unique attributes: a 400 naming the line and the string otherwise. */
  function checkLines(lines: PickLineInput[]): Filter[][] {
    const errors: FieldError[] = [];
    let code: "invalid_filter" | "unsupported_operator" | "unknown_search_key" = "invalid_filter";
    const parsed = lines.map(
      (line, i) =>
        line.expectations.containers[0]?.products[0]?.productAttributes.filter_parameters.map((text, j) => {
          const p = parseFilter(text);
          if (!p.ok) {
            code = p.error.code;
            errors.push({
              path: FILTER_PATH(i, j),
              message: `line '${line.externalServiceRequestId}': '${text}': ${p.error.reason} (at ${p.error.position})`,
            });
            return undefined;
          }
          if (p.filter.key !== "product_sku" && !ctx.items.isKnownKey(p.filter.key)) {
            code = "unknown_search_key";
            errors.push({
              path: FILTER_PATH(i, j),
              message: `line '${line.externalServiceRequestId}': '${text}': '${p.filter.key}' is not a unique attribute of any item schema`,
            });
            return undefined;
          }
          return p.filter;
        }) ?? [],
    );
    if (errors.length) throw new AppError(code, errors[0]?.message ?? "bad filter", errors);
    return parsed as Filter[][];
  }

  function scheduling(attrs: PickCreateInput["attributes"]): Scheduling {
    const errors: FieldError[] = [];
    const time = (name: "pick_before_time" | "pick_after_time"): number | null => {
      const text = attrs?.[name];
      if (text === undefined) return null;
      const p = parseSpecTimestamp(text, timeZone);
      if (p.ok) return p.ms;
      errors.push({ path: `attributes.${name}`, message: p.error.reason });
      return null;
    };
    const s = {
      priorityRank: SIMPLE_PRIORITIES.indexOf(attrs?.simple_priority ?? "normal"),
      pickBefore: time("pick_before_time"),
      pickAfter: time("pick_after_time"),
    };
    if (errors.length)
      throw new AppError("validation_failed", `${errors[0]?.path}: ${errors[0]?.message}`, errors);
    return s;
  }

  /** Work held back by pick_after_time is released by the scheduler at that time (not critical work). */
  function announceHeld(tx: Tx, sched: Scheduling): void {
    if (sched.pickAfter !== null && sched.pickAfter > tx.now && sched.priorityRank !== 0) {
      tx.announce("heldWork", { releaseAt: sched.pickAfter });
    }
  }

  function isPack(lines: PickLineInput[]): boolean {
    return lines.some((l) => PACK_ATTRIBUTES.some((k) => l.attributes?.[k] !== undefined));
  }

  function insertLines(tx: Tx, requestId: number, lines: PickLineInput[]): void {
    lines.forEach((line, position) => {
      const product = line.expectations.containers[0]?.products[0];
      const fresh = createPickLine(product?.productQuantity ?? 0);
      ctx.requests.insertLine({
        requestId,
        externalId: line.externalServiceRequestId,
        position,
        state: fresh.state,
        expected: fresh.expected,
        picked: 0,
        short: 0,
        filtersJson: JSON.stringify(product?.productAttributes.filter_parameters ?? []),
        attributesJson: JSON.stringify(line.attributes ?? null),
        expectationIdsJson: JSON.stringify({
          containerId: ctx.requests.nextEntityId("container"),
          productId: ctx.requests.nextEntityId("product"),
        }),
        createdOn: tx.now,
        updatedOn: tx.now,
      });
    });
  }

  /** Items matching all of a line's filters, through the unique-attribute index. */
  function candidates(filters: Filter[]): string[] {
    let set: Set<number> | null = null;
    for (const f of filters) {
      const values = f.operator === "=" ? [f.value] : f.values;
      const ids = new Set(values.flatMap((v) => ctx.items.idsByKey(f.key, v, -1)));
      const prev: Set<number> | null = set;
      set = prev === null ? ids : new Set([...prev].filter((id: number) => ids.has(id)));
    }
    return [...(set ?? [])].map(String);
  }

  /** Allocation against free stock, all-or-nothing (DESIGN.md §4): fulfillable or not_fulfillable. */
  function allocateRequest(tx: Tx, row: RequestRow): RequestRow {
    const lines = ctx.requests.lines(row.id);
    const demands: LineDemand[] = lines.map((l) => ({
      lineId: String(l.id),
      candidates: candidates(
        (JSON.parse(l.filtersJson) as string[]).map(
          (t) => (parseFilter(t) as { ok: true; filter: Filter }).filter,
        ),
      ),
      quantity: l.expected,
    }));
    const itemIds = [...new Set(demands.flatMap((d) => d.candidates))].map(Number);
    const free = stock
      .freeStockOf(itemIds)
      .map((s) => ({ location: s.location, itemId: String(s.itemId), free: s.quantity - s.reserved }));
    const result = allocate(demands, free);
    const input = result.ok
      ? ({ type: "allocated", reservations: result.reservations } as const)
      : ({ type: "allocation_failed", lineId: result.error.lineId } as const);
    const step = stepPick(row.state as PickState, input);
    if (isRefusal(step)) throw new AppError("invalid_state", step.error.reason);
    for (const l of lines) {
      const ls = stepPickLine(lineState(l), { type: result.ok ? "allocated" : "allocation_failed" });
      if (!isRefusal(ls)) ctx.requests.updateLine({ ...l, state: ls.state.state, updatedOn: tx.now });
    }
    const next = applyPickEffects(tx, ctx, stock, row, step.state, step.effects, bins.hooks);
    if (next.state === "fulfillable") bins.assignBins(tx, "if-assigned");
    return next;
  }

  /** order_modification, written before the order_information that follows it (emission rule 1). */
  function modification(
    tx: Tx,
    row: RequestRow,
    kind: "cancel" | "modify",
    body: unknown,
    outcome: "success" | "failure",
    reason?: string,
  ) {
    const id = ctx.requests.insertTransaction(row.id, kind, JSON.stringify(body), outcome, tx.now);
    tx.notify("order_modification", {
      state: outcome,
      id,
      externalServiceRequestId: row.externalId,
      type: "PICK",
      action: kind,
      ...(reason ? { reason } : {}),
    });
    return id;
  }

  return {
    checkLines,
    allocateRequest,

    /** Inserts a new pick (state created), then allocates it in the same transaction. */
    create(tx: Tx, input: PickCreateInput, requestJson: string) {
      checkLines(input.serviceRequests);
      const sched = scheduling(input.attributes);
      const start = createPick();
      const fresh: Omit<RequestRow, "id"> = {
        externalId: input.externalServiceRequestId,
        type: "PICK",
        state: start.state,
        status: PICK_STATUS[start.state],
        requestJson,
        attributesJson: JSON.stringify(input.attributes ?? null),
        expectationsJson: null,
        isPack: isPack(input.serviceRequests) ? 1 : 0,
        binId: null,
        ...sched,
        executionJson: null,
        receivedOn: tx.now,
        createdOn: tx.now,
        updatedOn: tx.now,
      };
      const id = ctx.requests.insert(fresh);
      insertLines(tx, id, input.serviceRequests);
      announceHeld(tx, sched);
      const row: RequestRow = { id, ...fresh };
      const created = viewOf(row, ctx);
      allocateRequest(tx, row);
      return created;
    },

    cancel(tx: Tx, externalId: string, body: unknown): number {
      const row = mustFind(ctx, "PICK", externalId);
      const step = stepPick(row.state as PickState, { type: "cancel", transaction: "" });
      if (isRefusal(step)) return modification(tx, row, "cancel", body, "failure", step.error.reason);
      const txId = modification(tx, row, "cancel", body, "success");
      for (const l of ctx.requests.lines(row.id)) {
        const ls = stepPickLine(lineState(l), { type: "cancel" });
        if (!isRefusal(ls)) ctx.requests.updateLine({ ...l, state: ls.state.state, updatedOn: tx.now });
      }
      const next = applyPickEffects(tx, ctx, stock, row, step.state, step.effects, bins.hooks);
      if (next.binId) bins.checkBin(tx, next.binId);
      return txId;
    },

    modify(tx: Tx, input: PickModifyInput, body: unknown): number {
      const row = mustFind(ctx, "PICK", input.externalServiceRequestId);
      if (input.serviceRequests) checkLines(input.serviceRequests);
      const sched = input.attributes !== undefined ? scheduling(input.attributes) : undefined;
      const step = stepPick(row.state as PickState, { type: "modify", transaction: "" });
      if (isRefusal(step)) return modification(tx, row, "modify", body, "failure", step.error.reason);
      const txId = modification(tx, row, "modify", body, "success");
      // Release what was reserved before the lines are replaced (release reads the current lines).
      let next = applyPickEffects(
        tx,
        ctx,
        stock,
        row,
        step.state,
        step.effects.filter((e) => e.kind !== "notify"),
        bins.hooks,
      );
      if (input.serviceRequests) {
        ctx.requests.deleteLines(row.id);
        insertLines(tx, row.id, input.serviceRequests);
      } else {
        for (const l of ctx.requests.lines(row.id)) {
          const ls = stepPickLine(lineState(l), { type: "reset" });
          if (!isRefusal(ls)) ctx.requests.updateLine({ ...l, state: ls.state.state, updatedOn: tx.now });
        }
      }
      next = {
        ...next,
        attributesJson:
          input.attributes !== undefined ? JSON.stringify(input.attributes) : next.attributesJson,
        isPack: input.serviceRequests ? (isPack(input.serviceRequests) ? 1 : 0) : next.isPack,
        ...(sched ?? {}),
      };
      ctx.requests.update(next);
      if (sched) announceHeld(tx, sched);
      next = allocateRequest(tx, next);
      if (next.state === "not_fulfillable" && next.binId) {
        ctx.station.setBin(next.binId, "empty", "none", tx.now);
        ctx.requests.update({ ...next, binId: null });
        bins.assignBins(tx);
      }
      return txId;
    },
  };
}

export type PicksService = ReturnType<typeof createPicksService>;
