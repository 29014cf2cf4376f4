import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Catalogs, PDEAs, category schemas, items, their unique keys and barcodes. */

export const catalogs = sqliteTable("catalogs", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  clientCatalogId: text("client_catalog_id").notNull().unique(),
  description: text("description"),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

export const pdeas = sqliteTable(
  "pdeas",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    catalogId: integer("catalog_id")
      .notNull()
      .references(() => catalogs.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    fieldName: text("field_name").notNull(),
    fieldDataType: text("field_data_type").notNull(),
    /** JSON list of {locale, display_name}. */
    displayData: text("display_data").notNull(),
  },
  (t) => [
    uniqueIndex("pdeas_catalog_field_idx").on(t.catalogId, t.fieldName),
    index("pdeas_field_idx").on(t.fieldName),
  ],
);

/** Category schemas, learnt from items that carry a schema and a clientCategoryId (docs/decisions.md). */
export const categories = sqliteTable("categories", {
  clientCategoryId: text("client_category_id").primaryKey(),
  schemaJson: text("schema_json").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

export const items = sqliteTable(
  "items",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    clientItemId: text("client_item_id"),
    productSku: text("product_sku").notNull(),
    clientCategoryId: text("client_category_id"),
    /** The effective schema (own or the category's), JSON. */
    schemaJson: text("schema_json").notNull(),
    /** True when the schema came with the item rather than from its category. */
    ownSchema: integer("own_schema", { mode: "boolean" }).notNull(),
    /** The item as posted, minus nothing: JSON. */
    doc: text("doc").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    /**
     * The size in bytes of the item's search_v2 answer, measured when the item was written (null for an
     * item written before it was kept): a search is measured from it without assembling its items
     * (docs/limits.md#item-documents).
     */
    answerBytes: integer("answer_bytes"),
  },
  (t) => [index("items_sku_idx").on(t.productSku)],
);

/**
 * One row per (unique attribute, value) of an item: the index behind search_v2 and pick filters.
 * Never a scan of all items (issue: search uses an index on the unique attribute values).
 */
export const itemKeys = sqliteTable(
  "item_keys",
  {
    attr: text("attr").notNull(),
    value: text("value").notNull(),
    itemId: integer("item_id")
      .notNull()
      .references(() => items.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.attr, t.value, t.itemId] }), index("item_keys_item_idx").on(t.itemId)],
);

/** One row per uniqueness group of an item: `group` is the sorted attribute names, `tuple` their values. */
export const itemIdentities = sqliteTable(
  "item_identities",
  {
    groupKey: text("group_key").notNull(),
    tuple: text("tuple").notNull(),
    itemId: integer("item_id")
      .notNull()
      .references(() => items.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.groupKey, t.tuple] }), index("item_identities_item_idx").on(t.itemId)],
);

/** Every barcode in the system, of items and of their itemConfig levels: globally unique (spec: Limits). */
export const barcodes = sqliteTable(
  "barcodes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    barcode: text("barcode").notNull().unique(),
    itemId: integer("item_id")
      .notNull()
      .references(() => items.id, { onDelete: "cascade" }),
    /** null for the item's own barcodeList; else the level's path, e.g. `level.0.level.1`. */
    levelPath: text("level_path"),
  },
  (t) => [index("barcodes_item_idx").on(t.itemId)],
);
