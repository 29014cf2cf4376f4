import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Operators' sessions at the seats, summed up when each ended (docs/station.md#productivity-and-the-shift):
 * the shift report's rows (`pps-edge report shift`).
 */
export const seatSessions = sqliteTable(
  "seat_sessions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    seat: text("seat").notNull(),
    operator: text("operator").notNull(),
    startedAt: integer("started_at").notNull(),
    endedAt: integer("ended_at").notNull(),
    /** logout: the operator (or a client) logged out; idle: signed out for idling */
    endedBy: text("ended_by", { enum: ["logout", "idle"] }).notNull(),
    lines: integer("lines").notNull(),
    units: integer("units").notNull(),
    /** JSON: exception reports by kind */
    exceptions: text("exceptions").notNull(),
    idleMs: integer("idle_ms").notNull(),
  },
  (t) => [index("seat_sessions_ended_idx").on(t.endedAt)],
);

/**
 * The tally of each seat's open session (docs/station.md#productivity-and-the-shift), kept as work is
 * done so an agent restart mid-session goes on counting from it: one row per seat, removed when the
 * session ends (its summary goes to `seat_sessions`). `tally` and `recent` are JSON
 * (domain/session-summary.ts `SessionTally`, domain/productivity.ts `WorkDone[]`).
 */
export const seatOpenSessions = sqliteTable("seat_open_sessions", {
  seat: text("seat").primaryKey(),
  operator: text("operator").notNull(),
  /** the seat's `logged_in_at` of this login: another login is another session */
  loggedInAt: integer("logged_in_at"),
  startedAt: integer("started_at").notNull(),
  tally: text("tally").notNull(),
  recent: text("recent").notNull(),
});
