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
  /**
   * What the user may do (src/domain/roles.ts). Users that existed before roles keep every right:
   * the default makes them admins, so existing set-ups keep working.
   */
  role: text("role", { enum: ["integration", "operator", "admin"] })
    .notNull()
    .default("admin"),
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
    /**
     * The login the token descends from: the `jti` of its password grant, kept by every refresh. A refresh
     * token used twice revokes its family only (docs/decisions.md: one user may run several clients).
     */
    family: text("family").notNull().default(""),
    expiresAt: integer("expires_at").notNull(),
    revoked: integer("revoked", { mode: "boolean" }).notNull().default(false),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    index("tokens_user_idx").on(t.userId),
    index("tokens_expires_idx").on(t.expiresAt),
    index("tokens_family_idx").on(t.family),
  ],
);

/**
 * The security event log: logins, failures, lockouts, user changes, token revocations and role
 * refusals, kept on the station so an admin can see who tried what (docs/security.md).
 */
export const securityEvents = sqliteTable(
  "security_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: integer("at").notNull(),
    kind: text("kind").notNull(),
    /** The user the event concerns, as given (it may name no existing user). */
    username: text("username"),
    /** The client's address, when the event came over the network. */
    address: text("address"),
    /** Where it happened: `http`, `mqtt`, `screen` or `cli`. */
    channel: text("channel").notNull(),
    /** Event-specific facts as JSON (never a password or a token). */
    detail: text("detail"),
  },
  (t) => [index("security_events_at_idx").on(t.at), index("security_events_kind_idx").on(t.kind)],
);

/**
 * Supervisors' seat credentials (docs/security.md#supervisor-credentials): an API user's badge and PIN,
 * each authorising one action at a seat that the user's role may perform. The badge's secret is random
 * (a SHA-256 digest is enough, as for tokens); the PIN is short, so it is a scrypt hash.
 */
export const supervisorCredentials = sqliteTable("supervisor_credentials", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** sha256 of the badge's secret, or null: no badge. */
  badgeHash: text("badge_hash").unique(),
  /** `scrypt$…` of the PIN (auth/password.ts), or null: no PIN. */
  pinHash: text("pin_hash"),
  updatedAt: integer("updated_at").notNull(),
});
