import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * The station's truth. Timestamps are epoch milliseconds (integers) so that ordering and expiry checks
 * are cheap; they are formatted as ISO 8601 only at the edges (DESIGN.md §9).
 */

export const settings = sqliteTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

export const users = sqliteTable("users", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  username: text("username").notNull().unique(),
  /** `scrypt$N$r$p$salt$hash`, base64 parts (auth/password.ts). */
  passwordHash: text("password_hash").notNull(),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

export const tokens = sqliteTable(
  "tokens",
  {
    /** sha256 of the bearer string: a stolen database does not yield usable tokens. */
    tokenHash: text("token_hash").primaryKey(),
    kind: text("kind", { enum: ["access", "refresh"] }).notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    jti: text("jti").notNull(),
    expiresAt: integer("expires_at").notNull(),
    revoked: integer("revoked", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("tokens_user_idx").on(t.userId), index("tokens_expires_idx").on(t.expiresAt)],
);

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

/** Category schemas, learnt from items that carry a schema and a clientCategoryId (README: decisions). */
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

// ---------------------------------------------------------------------------------------------------
// Station, stock, service requests, audits, reports and the outbox (issue: service requests).

/** Singleton row (id = 1): the station's mode (DESIGN.md §3). */
export const stationState = sqliteTable("station_state", {
  id: integer("id").primaryKey(),
  mode: text("mode", { enum: ["pick", "put", "audit"] }).notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/** Seats and who is logged in at each (operator logins are not API users). */
export const seats = sqliteTable("seats", {
  seat: text("seat").primaryKey(),
  userName: text("user_name"),
  loggedInAt: integer("logged_in_at"),
});

/** Order bins of the put wall. `holder` says what occupies it; `printState` gates pick+pack release. */
export const bins = sqliteTable("bins", {
  id: text("id").primaryKey(),
  /** empty: free; pick: holds pick requests; put: holds a staged tote; complete: waiting to be emptied */
  state: text("state", { enum: ["empty", "pick", "put", "complete"] }).notNull(),
  /** none | waiting (label printed, waiting for print-ready) | done */
  printState: text("print_state", { enum: ["none", "waiting", "done"] })
    .notNull()
    .default("none"),
  updatedAt: integer("updated_at").notNull(),
});

/** Slots (locations) and the MSU each belongs to. */
export const locations = sqliteTable(
  "locations",
  {
    id: text("id").primaryKey(),
    msu: text("msu").notNull(),
  },
  (t) => [index("locations_msu_idx").on(t.msu)],
);

/** Racks (MSU faces) presented at the station now. */
export const racks = sqliteTable("racks", {
  msu: text("msu").primaryKey(),
  presentedAt: integer("presented_at").notNull(),
});

/** Stock per (location, item); `reserved` is held by allocated pick lines and is never above `quantity`. */
export const stock = sqliteTable(
  "stock",
  {
    location: text("location")
      .notNull()
      .references(() => locations.id),
    itemId: integer("item_id")
      .notNull()
      .references(() => items.id),
    quantity: integer("quantity").notNull(),
    reserved: integer("reserved").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.location, t.itemId] }), index("stock_item_idx").on(t.itemId)],
);

export const serviceRequests = sqliteTable(
  "service_requests",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    externalId: text("external_id").notNull(),
    type: text("type", { enum: ["PICK", "PUT"] }).notNull(),
    state: text("state").notNull(),
    status: text("status").notNull(),
    /** The request as the client sent it, canonical JSON: a retried create is compared against it. */
    requestJson: text("request_json").notNull(),
    /** Root attributes as they are now (modify may change them), JSON. */
    attributesJson: text("attributes_json").notNull(),
    /** PUT expectations (with assigned ids), JSON; PICK keeps its expectations on its lines. */
    expectationsJson: text("expectations_json"),
    isPack: integer("is_pack", { mode: "boolean" }).notNull().default(false),
    binId: text("bin_id"),
    /** Work order (DESIGN.md §4): 0 critical … 3 low, deadline and hold-back time, epoch ms. */
    priorityRank: integer("priority_rank").notNull().default(2),
    pickBefore: integer("pick_before"),
    pickAfter: integer("pick_after"),
    /** Put staging: the bin it was staged to, and the seat/user (for notifications). */
    executionJson: text("execution_json"),
    receivedOn: integer("received_on").notNull(),
    createdOn: integer("created_on").notNull(),
    updatedOn: integer("updated_on").notNull(),
  },
  (t) => [
    uniqueIndex("service_requests_type_external_idx").on(t.type, t.externalId),
    index("service_requests_state_idx").on(t.type, t.state),
    index("service_requests_bin_idx").on(t.binId),
  ],
);

/** Pick lines (PICK_LINE children). */
export const pickLines = sqliteTable(
  "pick_lines",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    requestId: integer("request_id")
      .notNull()
      .references(() => serviceRequests.id, { onDelete: "cascade" }),
    externalId: text("external_id").notNull(),
    position: integer("position").notNull(),
    state: text("state").notNull(),
    expected: integer("expected").notNull(),
    picked: integer("picked").notNull().default(0),
    short: integer("short").notNull().default(0),
    /** The filter strings as sent, JSON list. */
    filtersJson: text("filters_json").notNull(),
    /** Line attributes (pick+pack shipping data), JSON. */
    attributesJson: text("attributes_json").notNull(),
    /** Ids assigned to the expectation container and product, JSON `{containerId, productId}`. */
    expectationIdsJson: text("expectation_ids_json").notNull(),
    createdOn: integer("created_on").notNull(),
    updatedOn: integer("updated_on").notNull(),
  },
  (t) => [index("pick_lines_request_idx").on(t.requestId)],
);

/** Reservations of free stock held by pick lines (all-or-nothing per request). */
export const reservations = sqliteTable(
  "reservations",
  {
    lineId: integer("line_id")
      .notNull()
      .references(() => pickLines.id, { onDelete: "cascade" }),
    location: text("location").notNull(),
    itemId: integer("item_id").notNull(),
    quantity: integer("quantity").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.lineId, t.location, t.itemId] }),
    index("reservations_location_idx").on(t.location),
  ],
);

/** Actual containers: what happened, one per transaction (spec: actuals.containers). */
export const actuals = sqliteTable(
  "actuals",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    requestId: integer("request_id")
      .notNull()
      .references(() => serviceRequests.id, { onDelete: "cascade" }),
    lineId: integer("line_id"),
    state: text("state").notNull(),
    location: text("location"),
    itemId: integer("item_id"),
    quantity: integer("quantity").notNull(),
    /** productAttributes of the actual product (pdfa_values, package_name, package_count), JSON. */
    productJson: text("product_json").notNull(),
    /** Id of the actual's one product (from entity_ids, as is the container's id). */
    productId: integer("product_id"),
    /** Who and where: user_name, pps_id, pps_seat_name, pps_bin_id, JSON. */
    contextJson: text("context_json").notNull(),
    createdOn: integer("created_on").notNull(),
  },
  (t) => [index("actuals_request_idx").on(t.requestId)],
);

/** Pick cancel and modify calls: the transaction id the result notification carries. */
export const requestTransactions = sqliteTable("request_transactions", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  requestId: integer("request_id").notNull(),
  kind: text("kind", { enum: ["cancel", "modify"] }).notNull(),
  bodyJson: text("body_json").notNull(),
  outcome: text("outcome", { enum: ["success", "failure"] }).notNull(),
  createdOn: integer("created_on").notNull(),
});

export const audits = sqliteTable(
  "audits",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    auditId: text("audit_id").notNull().unique(),
    name: text("name").notNull(),
    paramType: text("param_type", { enum: ["location", "sku"] }).notNull(),
    paramValueJson: text("param_value_json").notNull(),
    kq: integer("kq", { mode: "boolean" }).notNull(),
    creatorName: text("creator_name"),
    status: text("status").notNull(),
    /** The status a paused audit resumes to. */
    pausedFrom: text("paused_from"),
    ppsSeatName: text("pps_seat_name"),
    userName: text("user_name"),
    createdOn: integer("created_on").notNull(),
    completedOn: integer("completed_on"),
    updatedOn: integer("updated_on").notNull(),
  },
  (t) => [index("audits_status_idx").on(t.status)],
);

export const auditLines = sqliteTable(
  "audit_lines",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    auditLineId: text("audit_line_id").notNull().unique(),
    auditRowId: integer("audit_row_id")
      .notNull()
      .references(() => audits.id, { onDelete: "cascade" }),
    itemId: integer("item_id").notNull(),
    location: text("location").notNull(),
    status: text("status").notNull(),
    expectedQty: integer("expected_qty").notNull(),
    /** Counted quantities (quantity_details), JSON; null until counted. */
    countJson: text("count_json"),
    updatedOn: integer("updated_on").notNull(),
  },
  (t) => [index("audit_lines_audit_idx").on(t.auditRowId), index("audit_lines_location_idx").on(t.location)],
);

export const reports = sqliteTable("reports", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  type: text("type").notNull(),
  status: text("status", { enum: ["requested", "generated", "failed"] }).notNull(),
  fileName: text("file_name"),
  requestedOn: integer("requested_on").notNull(),
  generatedOn: integer("generated_on"),
});

/**
 * Every notification, written in the same transaction as the change that caused it. `seq` is the
 * per-station sequence: it only grows (AUTOINCREMENT never reuses a value, even after deletes).
 */
export const outbox = sqliteTable(
  "outbox",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    notificationId: text("notification_id").notNull().unique(),
    type: text("type").notNull(),
    /** The whole envelope, serialised once: what is published is byte for byte what was committed. */
    envelope: text("envelope").notNull(),
    createdAt: integer("created_at").notNull(),
    deliveredAt: integer("delivered_at"),
  },
  (t) => [index("outbox_undelivered_idx").on(t.deliveredAt, t.seq)],
);

/**
 * One sequence for every container and product id the agent hands out (spec: Container.id,
 * Product.id are integers), so no two containers or products ever share an id.
 */
export const entityIds = sqliteTable("entity_ids", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  kind: text("kind", { enum: ["container", "product"] }).notNull(),
});

// ---------------------------------------------------------------------------------------------------
// MQTT sync (issue: MQTT sync; DESIGN.md §5 "MQTT").

/**
 * Requests received over MQTT, keyed by the requester's `transaction`: the row is written in the same
 * transaction as the change, so a repeated request gets the stored response and changes nothing twice
 * (reference/mqtt.md a.6).
 */
export const mqttInbox = sqliteTable(
  "mqtt_inbox",
  {
    txnId: text("txn_id").primaryKey(),
    name: text("name").notNull(),
    /** sha256 of the request body: the same `transaction` with another body is refused. */
    requestHash: text("request_hash").notNull(),
    /** The response as published, JSON. */
    response: text("response").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("mqtt_inbox_created_idx").on(t.createdAt)],
);

/**
 * Notifications the broker refused for good (not authorised, too large, retries exhausted): moved
 * aside so they do not block the rest (reference/mqtt.md c.6). The outbox row is taken out of the
 * delivery queue in the same transaction; this copy keeps the envelope for an operator.
 */
export const outboxDead = sqliteTable("outbox_dead", {
  seq: integer("seq").primaryKey(),
  notificationId: text("notification_id").notNull(),
  type: text("type").notNull(),
  envelope: text("envelope").notNull(),
  reason: text("reason").notNull(),
  /** The MQTT 5 PUBACK reason code, when the broker gave one. */
  reasonCode: integer("reason_code"),
  deadAt: integer("dead_at").notNull(),
});
