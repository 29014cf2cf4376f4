import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The seats in training (docs/station.md#training): kept so a seat put in training stays in training
 * across an agent restart, until someone takes it out.
 */
export const trainingSeats = sqliteTable("training_seats", {
  seat: text("seat").primaryKey(),
  since: integer("since").notNull(),
});
