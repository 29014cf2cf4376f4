import type { Sqlite } from "./open.js";
import type { OutboxRow } from "./outbox.repo.js";
import type { RequestRow } from "./requests.repo.js";
import type { SqlRow } from "./row.types.js";
import type { mqttInbox, outboxDead, settings } from "./schema.js";

export type InboxRow = SqlRow<typeof mqttInbox>;

export type PendingRow = Pick<OutboxRow, "seq" | "notificationId"> & {
  /** The envelope exactly as committed, UTF-8. */
  payload: Buffer;
};

export interface RequestKeyRow {
  cursor: RequestRow["id"];
  type: RequestRow["type"];
  externalServiceRequestId: RequestRow["externalId"];
}

export type DeadRow = Pick<
  SqlRow<typeof outboxDead>,
  "seq" | "notificationId" | "type" | "reason" | "reasonCode" | "deadAt"
>;

/** The delivery watermark, as an SQL expression (0 before the first delivery). */
const WATERMARK = `coalesce((SELECT CAST(value AS INTEGER) FROM settings WHERE key = 'mqtt.deliveredSeq'), 0)`;

/**
 * What the MQTT sync keeps besides the outbox: the request inbox (idempotency by `transaction`), the
 * notifications moved aside, the connection session counter (reference/mqtt.md a.3, a.6, c.6), and the
 * delivery watermark. Notifications go out strictly in seq order, so "delivered up to seq W" is one
 * small durable write per batch of PUBACKs; the rows' own `delivered_at` (read by
 * GET /station/notifications and by pruning) is filled in behind it, in small chunks, by `backfill`.
 */
export function createMqttRepo(sqlite: Sqlite) {
  const q = {
    inboxGet: sqlite.prepare<[string], InboxRow>(
      `SELECT txn_id AS txnId, name, request_hash AS requestHash, response, created_at AS createdAt
         FROM mqtt_inbox WHERE txn_id = ?`,
    ),
    inboxPut: sqlite.prepare(
      "INSERT INTO mqtt_inbox (txn_id, name, request_hash, response, created_at) VALUES (?, ?, ?, ?, ?)",
    ),
    inboxPrune: sqlite.prepare("DELETE FROM mqtt_inbox WHERE created_at < ?"),
    deadPut: sqlite.prepare(
      `INSERT OR IGNORE INTO outbox_dead (seq, notification_id, type, envelope, reason, reason_code, dead_at)
       SELECT seq, notification_id, type, envelope, ?, ?, ? FROM outbox WHERE seq = ?`,
    ),
    // The envelope as bytes: published as they are, without a round trip through a JS string.
    pending: sqlite.prepare<[number, number], PendingRow>(
      `SELECT seq, notification_id AS notificationId, CAST(envelope AS BLOB) AS payload
         FROM outbox WHERE delivered_at IS NULL AND seq > ? ORDER BY seq LIMIT ?`,
    ),
    // Taken out of the delivery queue: the publisher reads only rows whose delivered_at is NULL.
    deadMark: sqlite.prepare("UPDATE outbox SET delivered_at = ? WHERE seq = ? AND delivered_at IS NULL"),
    deadList: sqlite.prepare<[number], DeadRow>(
      `SELECT seq, notification_id AS notificationId, type, reason, reason_code AS reasonCode, dead_at AS deadAt
         FROM outbox_dead ORDER BY seq LIMIT ?`,
    ),
    deadCount: sqlite.prepare<[], { n: number }>("SELECT count(*) AS n FROM outbox_dead"),
    session: sqlite.prepare<[], Pick<SqlRow<typeof settings>, "value">>(
      `INSERT INTO settings (key, value) VALUES ('mqtt.session', '1')
         ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)
       RETURNING value`,
    ),
    undelivered: sqlite.prepare<[], { n: number }>(
      `SELECT count(*) AS n FROM outbox WHERE delivered_at IS NULL AND seq > ${WATERMARK}`,
    ),
    oldestUndelivered: sqlite.prepare<[], Pick<OutboxRow, "seq" | "createdAt">>(
      `SELECT seq, created_at AS createdAt FROM outbox WHERE delivered_at IS NULL AND seq > ${WATERMARK}
        ORDER BY seq LIMIT 1`,
    ),
    requestPage: sqlite.prepare<[number, number], RequestKeyRow>(
      `SELECT id AS cursor, type, external_id AS externalServiceRequestId
         FROM service_requests WHERE id > ? ORDER BY id LIMIT ?`,
    ),
    watermark: sqlite.prepare<[], { seq: number }>(`SELECT ${WATERMARK} AS seq`),
    setWatermark: sqlite.prepare(
      `INSERT INTO settings (key, value) VALUES ('mqtt.deliveredSeq', ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    ),
    backfill: sqlite.prepare(
      `UPDATE outbox SET delivered_at = ? WHERE seq IN (
         SELECT seq FROM outbox WHERE delivered_at IS NULL AND seq <= ${WATERMARK} ORDER BY seq LIMIT ?)`,
    ),
  };

  const moveAside = sqlite.transaction((seq: number, reason: string, code: number | null, now: number) => {
    q.deadPut.run(reason, code, now, seq);
    q.deadMark.run(now, seq);
  });

  return {
    inboxGet: (txnId: string): InboxRow | undefined => q.inboxGet.get(txnId),
    /** Must run inside the transaction of the change the request made. */
    inboxPut(row: InboxRow): void {
      q.inboxPut.run(row.txnId, row.name, row.requestHash, row.response, row.createdAt);
    },
    inboxPrune: (before: number): number => q.inboxPrune.run(before).changes,
    /** Undelivered notifications after `seq`, oldest first, envelopes as bytes (the publisher's read). */
    pending: (seq: number, limit: number): PendingRow[] => q.pending.all(seq, limit),
    /** Copies the row to outbox_dead and takes it out of the delivery queue, in one transaction. */
    moveAside(seq: number, reason: string, code: number | null, now: number): void {
      moveAside.immediate(seq, reason, code, now);
    },
    dead: (limit = 100): DeadRow[] => q.deadList.all(limit),
    deadCount: (): number => q.deadCount.get()?.n ?? 0,
    /** The next connection session number; it only grows, across restarts too (Sparkplug bdSeq rule). */
    nextSession: (): number => Number(q.session.get()?.value ?? 1),
    /** Service requests by row id, a page at a time: the retained `state/<type>/<id>` messages. */
    requestPage: (after: number, limit: number): RequestKeyRow[] => q.requestPage.all(after, limit),
    /** Every row up to this seq is delivered or moved aside (the publisher's durable mark). */
    watermark: (): number => q.watermark.get()?.seq ?? 0,
    setWatermark(seq: number): void {
      q.setWatermark.run(String(seq));
    },
    /** Sets `delivered_at` on up to `limit` rows under the watermark; returns how many. */
    backfill: (now: number, limit: number): number => q.backfill.run(now, limit).changes,
    /** Undelivered notifications: a range of the (delivered_at, seq) index, not a scan of the outbox. */
    undeliveredCount: (): number => q.undelivered.get()?.n ?? 0,
    /** The oldest undelivered notification: an index lookup, cheap enough for every scrape. */
    oldestUndelivered: () => q.oldestUndelivered.get(),
  };
}

export type MqttRepo = ReturnType<typeof createMqttRepo>;
