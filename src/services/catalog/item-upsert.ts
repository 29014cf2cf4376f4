import { type PdeaDataType, valueFitsType } from "../../domain/catalog.schema.js";
import { AppError, type FieldError } from "../../domain/errors.js";
import {
  type BarcodeRef,
  canonicalValue,
  collectBarcodes,
  identitiesOf,
  numberLevels,
  uniqueKeysOf,
} from "../../domain/item.identity.js";
import type { ItemInput, ItemSchema } from "../../domain/item.schema.js";
import type { StoredItem } from "../../domain/item.view.js";
import type { Tx } from "../unit-of-work/unit-of-work.js";
import type { CatalogDeps } from "./catalog-deps.js";

/** The item's schema: its own, else its category's; a 400 when neither exists. */
function resolveSchema(deps: CatalogDeps, input: ItemInput): { schema: ItemSchema; own: boolean } {
  if (input.schema) return { schema: input.schema, own: true };
  const fromCategory = input.clientCategoryId ? deps.items.categorySchema(input.clientCategoryId) : undefined;
  if (fromCategory) return { schema: JSON.parse(fromCategory) as ItemSchema, own: false };
  throw new AppError(
    "schema_missing",
    input.clientCategoryId
      ? `schema: absent, and category '${input.clientCategoryId}' has no schema yet`
      : "schema: absent, and no clientCategoryId to inherit one from",
    [{ path: "schema", message: "a schema must exist at category or product level" }],
  );
}

/** Attributes a catalog declares must have one of its declared types. */
function checkPdeaTypes(deps: CatalogDeps, attrs: Record<string, unknown>): void {
  const types = deps.catalog.typesOf(Object.keys(attrs));
  const errors: FieldError[] = [];
  for (const [name, allowed] of types) {
    const v = attrs[name];
    if (v === null || v === undefined) continue;
    if (![...allowed].some((t: PdeaDataType) => valueFitsType(v, t))) {
      errors.push({
        path: `productAttributes.${name}`,
        message: `must be of catalog type ${[...allowed].join(" or ")}`,
      });
    }
  }
  if (errors.length)
    throw new AppError("validation_failed", `${errors[0]?.path}: ${errors[0]?.message}`, errors);
}

/** The existing item the unique groups identify; a 409 when they identify several. */
function existingItem(deps: CatalogDeps, identities: ReturnType<typeof identitiesOf>): number | undefined {
  const holderIds = [...new Set(deps.items.holdersOf(identities).map((h) => h.itemId))];
  if (holderIds.length > 1) {
    throw new AppError(
      "identity_conflict",
      `productAttributes: the uniqueness groups match ${holderIds.length} different items (${holderIds.join(", ")})`,
      [
        {
          path: "productAttributes",
          message: "the unique attribute groups identify more than one existing item",
        },
      ],
      { items: holderIds },
    );
  }
  return holderIds[0];
}

/** A barcode held by another item is a 409 naming the barcode and its holder. */
function checkBarcodes(deps: CatalogDeps, refs: BarcodeRef[], existingId: number | undefined): void {
  const taken = deps.items.barcodesIn(refs.map((r) => r.barcode)).filter((b) => b.itemId !== existingId);
  const first = taken[0];
  if (!first) return;
  const ref = refs.find((r) => r.barcode === first.barcode);
  throw new AppError(
    "barcode_conflict",
    `barcode '${first.barcode}' is already held by item ${first.itemId} (product_sku '${first.productSku}')`,
    taken.map((t) => ({
      path: refs.find((r) => r.barcode === t.barcode)?.path ?? "barcodeList",
      message: `held by item ${t.itemId} (product_sku '${t.productSku}')`,
    })),
    { barcode: first.barcode, path: ref?.path, item: { id: first.itemId, product_sku: first.productSku } },
  );
}

/**
 * Create or update an item, identified by its schema's unique attribute groups (spec: Items). In the
 * caller's transaction: identity, barcode checks and every write commit together or not at all.
 */
export function upsertItem(deps: CatalogDeps, input: ItemInput, tx: Tx): StoredItem {
  const { schema, own } = resolveSchema(deps, input);
  const attrs = input.productAttributes;
  checkPdeaTypes(deps, attrs);
  const identities = identitiesOf(schema, attrs);
  const refs = collectBarcodes(input.barcodeList, input.itemConfig?.level);
  const existingId = existingItem(deps, identities);
  checkBarcodes(deps, refs, existingId);
  const doc: ItemInput = { ...input };
  delete doc.id;
  if (input.itemConfig) doc.itemConfig = { level: numberLevels(input.itemConfig.level) ?? [] };
  const row = {
    clientItemId: input.clientItemId ?? null,
    productSku: attrs.product_sku as string,
    clientCategoryId: input.clientCategoryId ?? null,
    schemaJson: JSON.stringify(schema),
    ownSchema: own,
    doc: JSON.stringify(doc),
  };
  const { items } = deps;
  const id = existingId ?? items.insert(row, tx.now);
  if (existingId !== undefined) items.update(id, row, tx.now);
  if (own && input.clientCategoryId) items.rememberCategory(input.clientCategoryId, row.schemaJson, tx.now);
  const keys = uniqueKeysOf(schema)
    .filter((k) => attrs[k] !== undefined && attrs[k] !== null)
    .map((k): [string, string] => [k, canonicalValue(attrs[k])]);
  items.replaceKeys(id, keys);
  items.replaceIdentities(id, identities);
  items.syncBarcodes(
    id,
    refs.map((r) => ({ barcode: r.barcode, levelPath: r.levelPath })),
  );
  // a search is measured from the kept size, without assembling its items (docs/limits.md#item-documents)
  items.keepAnswerSize(id);
  // The item as just written, not read back: the document can be a megabyte of imageData, and reading
  // and parsing it again held the event loop that a scan waits on (docs/limits.md, "Measured").
  const times = items.times(id) ?? { createdAt: tx.now, updatedAt: tx.now };
  return {
    id,
    clientItemId: row.clientItemId,
    schema,
    doc,
    barcodes: items.barcodesOf(id),
    ...times,
  };
}
