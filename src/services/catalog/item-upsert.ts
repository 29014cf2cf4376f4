import type { CatalogRepo } from "../db/catalog.repo.js";
import type { ItemsRepo } from "../db/items.repo.js";
import { type PdeaDataType, valueFitsType } from "../domain/catalog.schema.js";
import { AppError, type FieldError } from "../domain/errors.js";
import {
  canonicalValue,
  collectBarcodes,
  identitiesOf,
  numberLevels,
  uniqueKeysOf,
} from "../domain/item.identity.js";
import type { ItemInput, ItemSchema, SearchInput } from "../domain/item.schema.js";
import { itemView, type StoredItem } from "../domain/item.view.js";
import type { UnitOfWork } from "./unit-of-work.js";

/** search_v2 answers at most this many items (pagination is not shown in the spec; README: decisions). */
export const SEARCH_LIMIT = 1000;

export function createItemsService(items: ItemsRepo, catalog: CatalogRepo, unitOfWork: UnitOfWork) {
  function resolveSchema(input: ItemInput): { schema: ItemSchema; own: boolean } {
    if (input.schema) return { schema: input.schema, own: true };
    const fromCategory = input.clientCategoryId ? items.categorySchema(input.clientCategoryId) : undefined;
    if (fromCategory) return { schema: JSON.parse(fromCategory) as ItemSchema, own: false };
    throw new AppError(
      "schema_missing",
      input.clientCategoryId
        ? `schema: absent, and category '${input.clientCategoryId}' has no schema yet`
        : "schema: absent, and no clientCategoryId to inherit one from",
      [{ path: "schema", message: "a schema must exist at category or product level" }],
    );
  }

  function checkPdeaTypes(attrs: Record<string, unknown>): void {
    const types = catalog.typesOf(Object.keys(attrs));
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

  function load(id: number): StoredItem | undefined {
    const row = items.get(id);
    if (!row) return undefined;
    return {
      id: row.id,
      clientItemId: row.clientItemId,
      schema: JSON.parse(row.schemaJson) as ItemSchema,
      doc: JSON.parse(row.doc) as ItemInput,
      barcodes: items.barcodesOf(id),
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }

  /** One transaction: identity, barcode checks and every write commit together or not at all. */
  function upsertIn(input: ItemInput, t: number): StoredItem {
    const { schema, own } = resolveSchema(input);
    const attrs = input.productAttributes;
    checkPdeaTypes(attrs);
    const identities = identitiesOf(schema, attrs);
    const refs = collectBarcodes(input.barcodeList, input.itemConfig?.level);

    const holders = items.holdersOf(identities);
    const holderIds = [...new Set(holders.map((h) => h.itemId))];
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
    const existingId = holderIds[0];

    const taken = items.barcodesIn(refs.map((r) => r.barcode)).filter((b) => b.itemId !== existingId);
    if (taken.length) {
      const first = taken[0] as (typeof taken)[number];
      const ref = refs.find((r) => r.barcode === first.barcode);
      throw new AppError(
        "barcode_conflict",
        `barcode '${first.barcode}' is already held by item ${first.itemId} (product_sku '${first.productSku}')`,
        taken.map((t) => ({
          path: refs.find((r) => r.barcode === t.barcode)?.path ?? "barcodeList",
          message: `held by item ${t.itemId} (product_sku '${t.productSku}')`,
        })),
        {
          barcode: first.barcode,
          path: ref?.path,
          item: { id: first.itemId, product_sku: first.productSku },
        },
      );
    }

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
    let id: number;
    if (existingId === undefined) id = items.insert(row, t);
    else {
      id = existingId;
      items.update(id, row, t);
    }
    if (own && input.clientCategoryId) items.rememberCategory(input.clientCategoryId, row.schemaJson, t);
    const keys = uniqueKeysOf(schema)
      .filter((k) => attrs[k] !== undefined && attrs[k] !== null)
      .map((k): [string, string] => [k, canonicalValue(attrs[k])]);
    items.replaceKeys(id, keys);
    items.replaceIdentities(id, identities);
    items.syncBarcodes(
      id,
      refs.map((r) => ({ barcode: r.barcode, levelPath: r.levelPath })),
    );
    return load(id) as StoredItem;
  }

  return {
    upsert(input: ItemInput): Record<string, unknown> {
      return itemView(unitOfWork.run((tx) => upsertIn(input, tx.now)));
    },

    /** For HTTP: committed with the other changes of this event-loop turn (one fsync for them all). */
    async upsertAsync(input: ItemInput): Promise<Record<string, unknown>> {
      return itemView(await unitOfWork.runAsync((tx) => upsertIn(input, tx.now)));
    },

    /** search_v2: every filter must name a unique attribute; results come from the item_keys index. */
    search(input: SearchInput): Array<Record<string, unknown>> {
      const errors: FieldError[] = [];
      input.filter_params.forEach((f, i) => {
        if (f.operator !== "=") {
          errors.push({
            path: `filter_params.${i}.operator`,
            message: `only '=' is supported, got '${f.operator}'`,
          });
        }
      });
      if (errors.length)
        throw new AppError("unsupported_operator", `${errors[0]?.path}: ${errors[0]?.message}`, errors);
      input.filter_params.forEach((f, i) => {
        if (f.key !== "product_sku" && !items.isKnownKey(f.key)) {
          errors.push({
            path: `filter_params.${i}.key`,
            message: `'${f.key}' is not a unique attribute of any item schema`,
          });
        }
      });
      if (errors.length)
        throw new AppError("unknown_search_key", `${errors[0]?.path}: ${errors[0]?.message}`, errors);

      const [first, ...rest] = input.filter_params;
      if (!first) return [];
      const ids = items
        .idsByKey(first.key, canonicalValue(first.value), rest.length ? -1 : SEARCH_LIMIT)
        .filter((id) => rest.every((f) => items.hasKey(id, f.key, canonicalValue(f.value))))
        .slice(0, SEARCH_LIMIT);
      return ids.map((id) => itemView(load(id) as StoredItem));
    },
  };
}

export type ItemsService = ReturnType<typeof createItemsService>;
