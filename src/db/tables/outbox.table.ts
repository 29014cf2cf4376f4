import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** The outbox of notifications and what MQTT sync keeps beside it. */

/**
 * Every notification, written in the same transaction as the change that caused it. `seq` is the
 * per-station sequence: it only grows (AUTOINCREMENT never reuses a value, even after deletes).
 */
export const outbox = sqliteTable(
  "outbox",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    notificationId: text("notification_id").notNull().unique(),
    type: text("type").notNull(),
    /** The whole envelope, serialised once: what is published is byte for byte what was committed. */
    envelope: text("envelope").notNull(),
    createdAt: integer("created_at").notNull(),
    deliveredAt: integer("delivered_at"),
  },
  (t) => [index("outbox_undelivered_idx").on(t.deliveredAt, t.seq)],
);

/**
 * Requests received over MQTT, keyed by the requester's `transaction`: the row is written in the same
 * transaction as the change, so a repeated request gets the stored response and changes nothing twice
 * (docs/mqtt.md#requests-and-responses).
 */
export const mqttInbox = sqliteTable(
  "mqtt_inbox",
  {
    txnId: text("txn_id").primaryKey(),
    name: text("name").notNull(),
    /** sha256 of the request body: the same `transaction` with another body is refused. */
    requestHash: text("request_hash").notNull(),
    /** The response as published, JSON. */
    response: text("response").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("mqtt_inbox_created_idx").on(t.createdAt)],
);

/**
 * Notifications the broker refused for good (not authorised, too large, retries exhausted): moved
 * aside so they do not block the rest (docs/mqtt.md#dead-letters). The outbox row is taken out of the
 * delivery queue in the same transaction; this copy keeps the envelope for an operator.
 */
export const outboxDead = sqliteTable("outbox_dead", {
  seq: integer("seq").primaryKey(),
  notificationId: text("notification_id").notNull(),
  type: text("type").notNull(),
  envelope: text("envelope").notNull(),
  reason: text("reason").notNull(),
  /** The MQTT 5 PUBACK reason code, when the broker gave one. */
  reasonCode: integer("reason_code"),
  deadAt: integer("dead_at").notNull(),
});
