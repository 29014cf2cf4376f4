import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Audits, their lines, and inventory reports. */

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
  /**
   * The base of `report_url`, as the caller reached the agent (the `Host` of the generate call); null
   * when it came without one (MQTT): then `http.publicUrl` or the listen address (docs/decisions.md).
   */
  baseUrl: text("base_url"),
});
