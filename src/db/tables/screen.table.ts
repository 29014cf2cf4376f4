import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./auth.table.js";

/** The operator screen: its sessions and the operators who logged in at the station. */

/**
 * A screen session (docs/station.md#operator-screen): bound to one seat, obtained with the
 * seat's screen key (`kind` key) or an API user's password (`kind` user). Stored as the sha256 of the
 * cookie's value, like tokens.
 */
export const screenSessions = sqliteTable(
  "screen_sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    seat: text("seat").notNull(),
    kind: text("kind", { enum: ["key", "user"] }).notNull(),
    /** the API user who signed in (kind user); their removal ends the session */
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** which screen key opened it (kind key): a new key ends the sessions of the old one */
    keyId: text("key_id"),
    createdAt: integer("created_at").notNull(),
    /** renewed while the screen is used (sliding expiry) */
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("screen_sessions_expires_idx").on(t.expiresAt)],
);

/** Operators seen at the station's seats: the screen's login buttons and each one's language. */
export const screenOperators = sqliteTable("screen_operators", {
  name: text("name").primaryKey(),
  /** `en`, `de`, … or null for the station's language */
  lang: text("lang"),
  lastLoginAt: integer("last_login_at").notNull(),
});

/**
 * The pick work a seat has lit (`kind` lit), kept so a restart can say what became of it, and what a
 * restart left to say until the operator acknowledges it (`kind` lost): docs/station.md#after-a-restart.
 * `work` is JSON (station/seat-work.ts `LitWork`).
 */
export const seatWork = sqliteTable(
  "seat_work",
  {
    seat: text("seat").notNull(),
    kind: text("kind", { enum: ["lit", "lost"] }).notNull(),
    work: text("work").notNull(),
    at: integer("at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.seat, t.kind] })],
);
