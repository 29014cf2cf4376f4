import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { items } from "./masterdata.table.js";

/** Station mode, seats, bins, slots, racks presented and stock. */

/** Singleton row (id = 1): the station's mode (docs/architecture.md#the-station-model). */
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
