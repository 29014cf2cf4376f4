import type { RequestRow } from "../db/requests.repo.js";
import { AppError, type FieldError } from "../domain/errors.js";
import { isRefusal } from "../domain/machine.js";
import { PUT_STATUS, type PutEffect, type PutInput, type PutState, stepPut } from "../domain/put.machine.js";
import type { PutCreateInput } from "../domain/service-request.schema.js";
import { actualContainer, type PutExpectations } from "../domain/service-request.view.js";
import {
  operatorIn,
  parseJson,
  pdfaValues,
  type RequestContext,
  toData,
  viewOf,
} from "./requests.support.js";
import type { Tx } from "./unit-of-work.js";

/** Expectations as stored: the view's shape plus the item each product resolved to. */
export interface StoredExpectations extends PutExpectations {
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
export const EXCESS: readonly string[] = ["back_excess_entities", "front_excess_entities"];

/** What the put use cases share: expectations and progress, the machine step, effects, actuals. */
export function createPutSupport(ctx: RequestContext) {
  /** Every expected product must name one known item (its unique attributes in pdfa_values). */
  function resolve(expectations: PutCreateInput["expectations"]): StoredExpectations {
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

  const atStation = (seat: string | undefined) => operatorIn(ctx, "put", seat);

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

  return { resolve, expectationsOf, progress, step, apply, record, atStation, itemFor };
}

export type PutSupport = ReturnType<typeof createPutSupport>;
