import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** Service requests, pick lines, reservations, actuals and the id sequence. */

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
    /** Work order (docs/architecture.md#flows): 0 critical … 3 low, deadline and hold-back time, epoch ms. */
    priorityRank: integer("priority_rank").notNull().default(2),
    pickBefore: integer("pick_before"),
    pickAfter: integer("pick_after"),
    /** Put staging: the bin it was staged to, and the seat/user (for notifications). */
    executionJson: text("execution_json"),
    receivedOn: integer("received_on").notNull(),
    createdOn: integer("created_on").notNull(),
    updatedOn: integer("updated_on").notNull(),
    /**
     * When its retained `state/<type>/<id>` was last cleared on the broker (docs/mqtt.md#retained-state):
     * null, or older than `updatedOn`, while the broker holds (or should hold) the request's state.
     */
    stateClearedOn: integer("state_cleared_on"),
  },
  (t) => [
    uniqueIndex("service_requests_type_external_idx").on(t.type, t.externalId),
    // The requests whose state is retained: what a reconnect republishes and the sweep looks through.
    index("service_requests_retained_idx")
      .on(t.updatedOn)
      .where(sql`state_cleared_on IS NULL OR state_cleared_on < updated_on`),
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

/**
 * One sequence for every container and product id the agent hands out (spec: Container.id,
 * Product.id are integers), so no two containers or products ever share an id.
 */
export const entityIds = sqliteTable("entity_ids", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  kind: text("kind", { enum: ["container", "product"] }).notNull(),
});
