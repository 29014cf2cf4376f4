import type { RequestRow } from "../../db/requests.repo.js";
import { AppError, type FieldError } from "../../domain/errors.js";
import type { PutCreateInput } from "../../domain/service-request.schema.js";
import type { PutExpectations } from "../../domain/service-request.view.js";
import { parseJson, type RequestContext } from "../requests/request-record.js";

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

/** Items whose unique attributes match a product's pdfa_values (product_sku first, through the index). */
function itemsMatching(ctx: RequestContext, values: Record<string, unknown>): number[] {
  let ids = ctx.items.idsByKey("product_sku", values.product_sku as string, -1);
  for (const [k, v] of Object.entries(values)) {
    if (k === "product_sku" || !ctx.items.isKnownKey(k)) continue;
    ids = ids.filter((id) => ctx.items.hasKey(id, k, typeof v === "string" ? v : JSON.stringify(v)));
  }
  return ids;
}

/** Every expected product must name one known item (its unique attributes in pdfa_values). */
export function resolveExpectations(
  ctx: RequestContext,
  expectations: PutCreateInput["expectations"],
): StoredExpectations {
  const errors: FieldError[] = [];
  const containers = expectations.containers.map((c, i) => ({
    id: ctx.requests.nextEntityId("container"),
    products: c.products.map((p, j) => {
      const values = p.productAttributes.pdfa_values as Record<string, unknown>;
      const ids = itemsMatching(ctx, values);
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

export function expectationsOf(row: RequestRow): StoredExpectations {
  return parseJson<StoredExpectations>(row.expectationsJson) ?? { containers: [] };
}

/** Quantity still to handle for a SKU, and whether the whole put is then handled. */
export function progress(ctx: RequestContext, row: RequestRow) {
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

/** The item a SKU of the put resolved to; a 400 when the put expects no such product. */
export function itemFor(row: RequestRow, sku: string): number {
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
