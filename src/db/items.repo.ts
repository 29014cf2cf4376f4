import {
  agreesWith,
  type Identity,
  identifyingValues,
  identitiesIn,
  type NamedItem,
  namesItem,
} from "../domain/item.identity.js";
import type { ItemSchema } from "../domain/item.schema.js";
import { prepareItemAnswers } from "./item-answer.js";
import type { Sqlite } from "./open.js";
import type { SqlRow } from "./row.types.js";
import type { barcodes, categories, itemIdentities, itemKeys, items } from "./tables.js";

/**
 * Items are on the hot path (every upsert, every search, every scan), so this repository uses
 * prepared better-sqlite3 statements over the drizzle-defined tables rather than the query builder.
 * Lists are passed as one JSON parameter (`json_each`) so each statement is prepared once.
 */
export type ItemRow = SqlRow<typeof items>;

export type BarcodeRow = SqlRow<typeof barcodes>;

export type IdentityRow = SqlRow<typeof itemIdentities>;

/** What an item is written from; `ownSchema` is a boolean here and bound as 0/1. */
export type NewItem = Pick<
  typeof items.$inferSelect,
  "clientItemId" | "productSku" | "clientCategoryId" | "schemaJson" | "ownSchema" | "doc"
>;

/** A filter over the unique-attribute index: the items whose `key` has one of `values`. */
export interface KeyFilter {
  key: string;
  values: string[];
}

/** Items matching every filter, and the index rows read to find them (the work done). */
export type FilterMatch = { ok: true; ids: number[]; rowsRead: number } | { ok: false; rowsRead: number };

/**
 * A filter's values, each once. Joined with CROSS JOIN so that SQLite looks each value up in the index
 * (attr, value): left to itself it scans every row of the attribute and the values for each.
 */
const DISTINCT_VALUES = "SELECT DISTINCT value FROM json_each(@values)";

/** The repository's statements, each prepared once. */
function prepareItemStatements(sqlite: Sqlite) {
  return {
    identity: sqlite.prepare<[string], IdentityRow>(
      `SELECT i.group_key AS groupKey, i.tuple AS tuple, i.item_id AS itemId
         FROM item_identities i JOIN json_each(?) j
           ON i.group_key = j.value ->> '$.groupKey' AND i.tuple = j.value ->> '$.tuple'`,
    ),
    barcodesIn: sqlite.prepare<[string], BarcodeRow & Pick<ItemRow, "productSku">>(
      `SELECT b.id, b.barcode, b.item_id AS itemId, b.level_path AS levelPath, it.product_sku AS productSku
         FROM barcodes b JOIN items it ON it.id = b.item_id
        WHERE b.barcode IN (SELECT value FROM json_each(?))`,
    ),
    barcodesOf: sqlite.prepare<[number], BarcodeRow>(
      "SELECT id, barcode, item_id AS itemId, level_path AS levelPath FROM barcodes WHERE item_id = ? ORDER BY id",
    ),
    insertItem: sqlite.prepare(
      `INSERT INTO items (client_item_id, product_sku, client_category_id, schema_json, own_schema, doc, created_at, updated_at)
       VALUES (@clientItemId, @productSku, @clientCategoryId, @schemaJson, @ownSchema, @doc, @now, @now)`,
    ),
    updateItem: sqlite.prepare(
      `UPDATE items SET client_item_id = @clientItemId, product_sku = @productSku, client_category_id = @clientCategoryId,
              schema_json = @schemaJson, own_schema = @ownSchema, doc = @doc, updated_at = @now WHERE id = @id`,
    ),
    getItem: sqlite.prepare<[number], ItemRow>(
      `SELECT id, client_item_id AS clientItemId, product_sku AS productSku, client_category_id AS clientCategoryId,
              schema_json AS schemaJson, own_schema AS ownSchema, doc, created_at AS createdAt, updated_at AS updatedAt,
              answer_bytes AS answerBytes
         FROM items WHERE id = ?`,
    ),
    // the item's identity and attributes without its document's other members (imageData may be large)
    attrsOf: sqlite.prepare<[number], { schemaJson: string; attrsJson: string | null }>(
      "SELECT schema_json AS schemaJson, doc -> '$.productAttributes' AS attrsJson FROM items WHERE id = ?",
    ),
    itemTimes: sqlite.prepare<[number], { createdAt: number; updatedAt: number }>(
      "SELECT created_at AS createdAt, updated_at AS updatedAt FROM items WHERE id = ?",
    ),
    deleteKeys: sqlite.prepare("DELETE FROM item_keys WHERE item_id = ?"),
    insertKey: sqlite.prepare("INSERT OR IGNORE INTO item_keys (attr, value, item_id) VALUES (?, ?, ?)"),
    deleteIdentities: sqlite.prepare("DELETE FROM item_identities WHERE item_id = ?"),
    insertIdentity: sqlite.prepare(
      "INSERT INTO item_identities (group_key, tuple, item_id) VALUES (?, ?, ?)",
    ),
    deleteBarcode: sqlite.prepare("DELETE FROM barcodes WHERE id = ?"),
    insertBarcode: sqlite.prepare("INSERT INTO barcodes (barcode, item_id, level_path) VALUES (?, ?, ?)"),
    updateBarcodeLevel: sqlite.prepare("UPDATE barcodes SET level_path = ? WHERE id = ?"),
    categorySchema: sqlite.prepare<[string], Pick<SqlRow<typeof categories>, "schemaJson">>(
      "SELECT schema_json AS schemaJson FROM categories WHERE client_category_id = ?",
    ),
    insertCategory: sqlite.prepare(
      "INSERT OR IGNORE INTO categories (client_category_id, schema_json, updated_at) VALUES (?, ?, ?)",
    ),
    // the distinct uniqueness groups, one index seek each (a skip scan): there are few, items are many
    groupKeys: sqlite.prepare<[], { groupKey: string }>(
      `WITH RECURSIVE g(k) AS (
         SELECT min(group_key) FROM item_identities
         UNION ALL SELECT (SELECT min(group_key) FROM item_identities WHERE group_key > g.k) FROM g WHERE g.k IS NOT NULL)
       SELECT k AS groupKey FROM g WHERE k IS NOT NULL`,
    ),
    idsBySku: sqlite.prepare<[string], Pick<ItemRow, "id">>(
      "SELECT id FROM items WHERE product_sku = ? ORDER BY id LIMIT 100",
    ),
    keyKnown: sqlite.prepare<[string], { one: number }>(
      "SELECT 1 AS one FROM item_keys WHERE attr = ? LIMIT 1",
    ),
    idsByKey: sqlite.prepare<[string, string, number], Pick<SqlRow<typeof itemKeys>, "itemId">>(
      "SELECT item_id AS itemId FROM item_keys WHERE attr = ? AND value = ? ORDER BY item_id LIMIT ?",
    ),
    keyRows: sqlite.prepare<[{ attr: string; values: string; limit: number }], { n: number }>(
      `SELECT count(*) AS n FROM (SELECT 1 FROM (${DISTINCT_VALUES}) v
         CROSS JOIN item_keys k ON k.attr = @attr AND k.value = v.value LIMIT @limit)`,
    ),
    idsOfKey: sqlite.prepare<[{ attr: string; values: string }], Pick<SqlRow<typeof itemKeys>, "itemId">>(
      `SELECT DISTINCT k.item_id AS itemId FROM (${DISTINCT_VALUES}) v
         CROSS JOIN item_keys k ON k.attr = @attr AND k.value = v.value ORDER BY k.item_id`,
    ),
    keysOf: sqlite.prepare<[string], SqlRow<typeof itemKeys>>(
      `SELECT attr, value, item_id AS itemId FROM item_keys WHERE item_id IN (SELECT value FROM json_each(?))`,
    ),
    hasKey: sqlite.prepare<[string, string, number], { one: number }>(
      "SELECT 1 AS one FROM item_keys WHERE attr = ? AND value = ? AND item_id = ?",
    ),
  };
}

/** The item's stored description (its document's `description`) when it is a text: the label's item lines. */
function prepareDescriptionOf(sqlite: Sqlite): (id: number) => string | undefined {
  const st = sqlite.prepare<[number], { description: unknown }>(
    "SELECT doc ->> '$.description' AS description FROM items WHERE id = ?",
  );
  return (id) => {
    const d = st.get(id)?.description;
    return typeof d === "string" && d.trim() ? d : undefined;
  };
}

export function createItemsRepo(sqlite: Sqlite) {
  return { ...itemsRepo(sqlite), descriptionOf: prepareDescriptionOf(sqlite) };
}

function itemsRepo(sqlite: Sqlite) {
  const q = prepareItemStatements(sqlite);
  const isKnownKey = (attr: string): boolean => q.keyKnown.get(attr) !== undefined;
  /** The items of these ids (each once, in id order) with their schema and productAttributes. */
  const parsedItems = (ids: Iterable<number>) =>
    [...new Set(ids)]
      .sort((a, b) => a - b)
      .flatMap((id) => {
        const row = q.attrsOf.get(id);
        if (!row) return [];
        const attrs = JSON.parse(row.attrsJson ?? "{}") as Record<string, unknown>;
        return [{ id, schema: JSON.parse(row.schemaJson) as ItemSchema, attrs }];
      });
  const agreeing = (ids: Iterable<number>, name: Readonly<Record<string, unknown>>): NamedItem[] =>
    parsedItems(ids).flatMap(({ id, schema, attrs }) =>
      agreesWith(name, attrs, isKnownKey) ? [{ id, values: identifyingValues(schema, attrs) }] : [],
    );
  return {
    /** Items that already hold any of these identities. */
    holdersOf(identities: Identity[]): IdentityRow[] {
      return q.identity.all(JSON.stringify(identities));
    },
    barcodesIn(barcodes: string[]): Array<BarcodeRow & Pick<ItemRow, "productSku">> {
      return barcodes.length ? q.barcodesIn.all(JSON.stringify(barcodes)) : [];
    },
    barcodesOf: (itemId: number): BarcodeRow[] => q.barcodesOf.all(itemId),
    get: (id: number): ItemRow | undefined => q.getItem.get(id),
    /** The item's productAttributes, read without the rest of its document; undefined when there is no such item. */
    productAttributesOf(id: number): Record<string, unknown> | undefined {
      const row = q.attrsOf.get(id);
      return row ? (JSON.parse(row.attrsJson ?? "{}") as Record<string, unknown>) : undefined;
    },
    /** The item as search_v2 answers it, built from the stored text, and its size (item-answer.ts). */
    ...prepareItemAnswers(sqlite),
    /** When the item was created and last written, without reading its document back. */
    times: (id: number): { createdAt: number; updatedAt: number } | undefined => q.itemTimes.get(id),
    insert(item: NewItem, now: number): number {
      return Number(q.insertItem.run({ ...item, ownSchema: item.ownSchema ? 1 : 0, now }).lastInsertRowid);
    },
    update(id: number, item: NewItem, now: number): void {
      q.updateItem.run({ ...item, ownSchema: item.ownSchema ? 1 : 0, now, id });
    },
    replaceKeys(itemId: number, keys: Array<[string, string]>): void {
      q.deleteKeys.run(itemId);
      for (const [attr, value] of keys) q.insertKey.run(attr, value, itemId);
    },
    replaceIdentities(itemId: number, identities: Identity[]): void {
      q.deleteIdentities.run(itemId);
      for (const i of identities) q.insertIdentity.run(i.groupKey, i.tuple, itemId);
    },
    /** Keeps the ids of barcodes the item still has; adds and removes the rest. */
    syncBarcodes(itemId: number, wanted: Array<{ barcode: string; levelPath: string | null }>): void {
      const current = new Map(q.barcodesOf.all(itemId).map((b) => [b.barcode, b]));
      for (const w of wanted) {
        const have = current.get(w.barcode);
        if (!have) q.insertBarcode.run(w.barcode, itemId, w.levelPath);
        else {
          if (have.levelPath !== w.levelPath) q.updateBarcodeLevel.run(w.levelPath, have.id);
          current.delete(w.barcode);
        }
      }
      for (const gone of current.values()) q.deleteBarcode.run(gone.id);
    },
    categorySchema: (id: string): string | undefined => q.categorySchema.get(id)?.schemaJson,
    /** Only the first schema seen for a category is kept (docs/decisions.md). */
    rememberCategory(id: string, schemaJson: string, now: number): void {
      q.insertCategory.run(id, schemaJson, now);
    },
    /**
     * The items a name (pdfa_values, a station call's attributes) names: those holding one of the
     * identities it gives, kept when none of its values contradicts theirs (domain/item.identity.ts).
     */
    named(name: Readonly<Record<string, unknown>>): NamedItem[] {
      const groups = q.groupKeys.all().map((g) => g.groupKey);
      const ids = q.identity.all(JSON.stringify(identitiesIn(name, groups))).map((h) => h.itemId);
      return parsedItems(ids).flatMap(({ id, schema, attrs }) =>
        namesItem(name, schema, attrs, isKnownKey) ? [{ id, values: identifyingValues(schema, attrs) }] : [],
      );
    },
    /** Items of the name's product_sku whose attributes its values agree with: what it may mean in part. */
    partlyNamed(name: Readonly<Record<string, unknown>>): NamedItem[] {
      const sku = name.product_sku;
      return typeof sku === "string"
        ? agreeing(
            q.idsBySku.all(sku).map((r) => r.id),
            name,
          )
        : [];
    },
    /** Of these items, those the name's values agree with (a name scoped to a request's own items). */
    agreeing,
    /** The item's identifying values (`pdfa_values`), or undefined when there is no such item. */
    valuesOf(id: number): Record<string, unknown> | undefined {
      const [item] = parsedItems([id]);
      return item && identifyingValues(item.schema, item.attrs);
    },
    isKnownKey,
    idsByKey: (attr: string, value: string, limit: number): number[] =>
      q.idsByKey.all(attr, value, limit).map((r) => r.itemId),
    /**
     * Items matching every filter (docs/decisions.md "Work limits"), reading at most about `maxRows`
     * index rows. The filter matching fewest rows drives: a lone filter is counted once (at most
     * `maxRows` + 1 rows, and not at all without a bound); several are counted side by side with a
     * limit that doubles until one ends below it, so finding it reads at most about four times the
     * filters times its rows. Its items are read, and the other filters are checked against their keys
     * in memory. More than `maxRows` read: `ok: false`, nothing resolved.
     */
    matchAll(filters: readonly KeyFilter[], maxRows = Number.POSITIVE_INFINITY): FilterMatch {
      if (filters.length === 0) return { ok: true, ids: [], rowsRead: 0 };
      let rowsRead = 0;
      let driver: KeyFilter | undefined = filters.length === 1 ? filters[0] : undefined;
      if (driver && Number.isFinite(maxRows)) {
        const limit = maxRows + 1;
        const n = q.keyRows.get({ attr: driver.key, values: JSON.stringify(driver.values), limit })?.n ?? 0;
        if (n > maxRows) return { ok: false, rowsRead: n };
      }
      for (let probe = 2; driver === undefined; probe *= 2) {
        let fewest = probe;
        for (const f of filters) {
          const n = q.keyRows.get({ attr: f.key, values: JSON.stringify(f.values), limit: probe })?.n ?? 0;
          rowsRead += n;
          if (n < fewest) [fewest, driver] = [n, f];
        }
        if (rowsRead > maxRows) return { ok: false, rowsRead };
      }
      const ids = q.idsOfKey
        .all({ attr: driver.key, values: JSON.stringify(driver.values) })
        .map((r) => r.itemId);
      const others = filters
        .filter((f) => f !== driver)
        .map((f) => ({ key: f.key, values: new Set(f.values) }));
      rowsRead += ids.length;
      if (others.length === 0 || ids.length === 0)
        return rowsRead > maxRows ? { ok: false, rowsRead } : { ok: true, ids, rowsRead };
      const keys = q.keysOf.all(JSON.stringify(ids));
      rowsRead += keys.length;
      if (rowsRead > maxRows) return { ok: false, rowsRead };
      const held = new Map<number, Array<[string, string]>>();
      for (const k of keys) {
        const list = held.get(k.itemId) ?? [];
        list.push([k.attr, k.value]);
        held.set(k.itemId, list);
      }
      const matches = (id: number) =>
        others.every((f) =>
          (held.get(id) ?? []).some(([attr, value]) => attr === f.key && f.values.has(value)),
        );
      return { ok: true, ids: ids.filter(matches), rowsRead };
    },
    hasKey: (itemId: number, attr: string, value: string): boolean =>
      q.hasKey.get(attr, value, itemId) !== undefined,
  };
}

export type ItemsRepo = ReturnType<typeof createItemsRepo>;
