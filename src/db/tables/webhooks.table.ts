import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Webhook endpoints and their delivery state (docs/webhooks.md). Endpoints come from the config file
 * (`source` config, written at every start) or from an admin (API or command line). Each endpoint has
 * its own cursor in the outbox, so a slow or dead endpoint holds up nothing else.
 */
export const webhookEndpoints = sqliteTable("webhook_endpoints", {
  id: text("id").primaryKey(),
  url: text("url").notNull(),
  /** JSON array of notification types, or NULL for every type. */
  types: text("types"),
  /** The Standard Webhooks signing secret (`whsec_` + base64); never logged, never listed. */
  secret: text("secret").notNull(),
  enabled: integer("enabled", { mode: "boolean" }).notNull(),
  /** Why the agent or an admin disabled it: `gone` (410), `horizon`, `admin`, `config`. */
  disabledReason: text("disabled_reason"),
  disabledAt: integer("disabled_at"),
  /** `config` (the config file owns it) or `admin`. */
  source: text("source").notNull(),
  /** Bumped by every change, so that a running agent sees what the command line changed. */
  revision: integer("revision").notNull().default(1),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * Where each endpoint stands in the outbox. `delivered_seq`: every notification up to it that the
 * endpoint wants was answered 2xx. The retry state of the oldest undelivered one survives a restart, so
 * the horizon counts from its first failure, not from the last start.
 */
export const webhookCursors = sqliteTable("webhook_cursors", {
  endpointId: text("endpoint_id")
    .primaryKey()
    .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
  deliveredSeq: integer("delivered_seq").notNull(),
  /** Failed attempts at the oldest undelivered notification, and when the first of them failed. */
  attempts: integer("attempts").notNull().default(0),
  failingSince: integer("failing_since"),
  lastStatus: integer("last_status"),
  lastError: text("last_error"),
  lastAttemptAt: integer("last_attempt_at"),
  lastDeliveredAt: integer("last_delivered_at"),
  /** A replay asked for by an admin: the next seq to send again and the last one, both inclusive. */
  replayNext: integer("replay_next"),
  replayTo: integer("replay_to"),
});
