import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** What central or a supervisor told a seat (docs/station.md#pausing-a-seat): its pauses and messages. */

/** One row per source that holds a seat paused (`central`, `supervisor`, `input:<device>/<channel>`). */
export const seatPauses = sqliteTable(
  "seat_pauses",
  {
    seat: text("seat").notNull(),
    source: text("source").notNull(),
    kind: text("kind", { enum: ["central", "supervisor", "input"] }).notNull(),
    by: text("by").notNull(),
    reason: text("reason").notNull(),
    since: integer("since").notNull(),
  },
  (t) => [primaryKey({ columns: [t.seat, t.source] })],
);

/** A message to a seat's operator, shown until acknowledged. */
export const seatMessages = sqliteTable(
  "seat_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    seat: text("seat").notNull(),
    text: text("text").notNull(),
    by: text("by").notNull(),
    sentAt: integer("sent_at").notNull(),
    acknowledgedAt: integer("acknowledged_at"),
    acknowledgedBy: text("acknowledged_by"),
  },
  (t) => [index("seat_messages_open_idx").on(t.seat, t.acknowledgedAt)],
);
