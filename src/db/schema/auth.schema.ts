import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Users, tokens and the agent's own settings. */

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
