import type { RequestRow } from "../../db/requests.repo.js";
import { AppError, type FieldError } from "../../domain/errors.js";
import { theOneNamed } from "../../domain/item.identity.js";
import type { PutCreateInput } from "../../domain/service-request.schema.js";
import type { PutExpectations } from "../../domain/service-request.view.js";
import type { ItemRef } from "../../domain/station.schema.js";
import { parseJson, type RequestContext } from "../request-record/request-record.js";

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

/**
 * Every expected product must name one item by its pdfa_values: the values of a whole uniqueness group
 * of it (docs/decisions.md#item-identity). Two products may name two items that share a product_sku.
 */
export function resolveExpectations(
  ctx: RequestContext,
  expectations: PutCreateInput["expectations"],
): StoredExpectations {
  const errors: FieldError[] = [];
  let ambiguous: AppError | undefined;
  const containers = expectations.containers.map((c, i) => ({
    id: ctx.requests.nextEntityId("container"),
    products: c.products.map((p, j) => {
      const values = p.productAttributes.pdfa_values as Record<string, unknown>;
      const path = `expectations.containers.${i}.products.${j}.productAttributes.pdfa_values`;
      let itemId = 0;
      try {
        itemId = theOneNamed(ctx.items.named(values), path, "pdfa_values", ctx.items.partlyNamed(values)).id;
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        if (e.code === "ambiguous_item") ambiguous ??= e;
        errors.push(...e.errors);
      }
      return {
        id: ctx.requests.nextEntityId("product"),
        productQuantity: p.productQuantity,
        productAttributes: p.productAttributes as Record<string, unknown>,
        itemId,
        sku: values.product_sku as string,
      };
    }),
  }));
  if (ambiguous) throw ambiguous;
  if (errors.length)
    throw new AppError("validation_failed", `${errors[0]?.path}: ${errors[0]?.message}`, errors);
  return { containers };
}

export function expectationsOf(row: RequestRow): StoredExpectations {
  return parseJson<StoredExpectations>(row.expectationsJson) ?? { containers: [] };
}

/** Quantity still to handle of an item (by its uid), and whether the whole put is then handled. */
export function progress(ctx: RequestContext, row: RequestRow) {
  const expected = new Map<number, number>();
  for (const c of expectationsOf(row).containers) {
    for (const p of c.products) expected.set(p.itemId, (expected.get(p.itemId) ?? 0) + p.productQuantity);
  }
  const handled = new Map<number, number>();
  for (const a of ctx.requests.actuals(row.id)) {
    if (EXCESS.includes(a.state) || a.itemId === null) continue;
    handled.set(a.itemId, (handled.get(a.itemId) ?? 0) + a.quantity);
  }
  const left = (itemId: number) => (expected.get(itemId) ?? 0) - (handled.get(itemId) ?? 0);
  const total = [...expected.keys()].reduce((n, id) => n + left(id), 0);
  return { expected, left, total };
}

function notExpected(row: RequestRow, path: string, what: string): AppError {
  return new AppError("validation_failed", `put '${row.externalId}' expects no item ${what}`, [
    { path, message: "not in the request's expectations" },
  ]);
}

/**
 * The expected item a station call names: by uid, or by values that agree with exactly one of the put's
 * expected items (docs/decisions.md#item-identity); 400 otherwise, `ambiguous_item` naming the
 * candidates when the values fit several.
 */
export function itemFor(ctx: RequestContext, row: RequestRow, ref: ItemRef): { itemId: number; sku: string } {
  const products = expectationsOf(row).containers.flatMap((c) => c.products);
  if ("uid" in ref) {
    const p = products.find((x) => x.itemId === ref.uid);
    if (!p) throw notExpected(row, ref.path, `with uid ${ref.uid}`);
    return { itemId: p.itemId, sku: p.sku };
  }
  const { path } = ref;
  const expected = new Set(products.map((p) => p.itemId));
  // scoped to the put: its products were named by a whole group when it was created, so the values
  // here need only tell its own items apart (docs/decisions.md#item-identity)
  const candidates = ctx.items.agreeing(expected, ref.name);
  if (!candidates.length) throw notExpected(row, path, JSON.stringify(ref.name));
  const { id } = theOneNamed(candidates, path, JSON.stringify(ref.name));
  return { itemId: id, sku: products.find((p) => p.itemId === id)?.sku ?? "" };
}
