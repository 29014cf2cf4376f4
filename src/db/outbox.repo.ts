import { envelope, type NotificationType, notificationId } from "../domain/notification.js";
import type { Sqlite } from "./open.js";
import type { SqlRow } from "./row.types.js";
import type { outbox } from "./tables.js";

export type OutboxRow = SqlRow<typeof outbox>;

export interface PendingRow {
  seq: number;
  notificationId: string;
  /** The envelope exactly as committed, UTF-8. */
  payload: Buffer;
}

/** A notification as a webhook endpoint reads it: the pending row and its type and commit time. */
export interface WebhookRow extends PendingRow {
  type: string;
  createdAt: number;
}

export interface DeadRow {
  seq: number;
  notificationId: string;
  type: string;
  reason: string;
  reasonCode: number | null;
  deadAt: number;
}

/**
 * The delivery cursor, as an SQL expression (0 before the first delivery): every row up to this seq was
 * acknowledged by the broker or moved aside. Kept under its historical settings key.
 */
const CURSOR = `coalesce((SELECT CAST(value AS INTEGER) FROM settings WHERE key = 'mqtt.deliveredSeq'), 0)`;

const SET_CURSOR = `INSERT INTO settings (key, value) VALUES ('mqtt.deliveredSeq', ?)
  ON CONFLICT (key) DO UPDATE SET value = excluded.value`;

/**
 * Undelivered, the one definition: above the delivery cursor and not marked delivered (a row moved aside
 * is marked). A range of the (delivered_at, seq) index, not a scan of the outbox.
 */
const UNDELIVERED = `delivered_at IS NULL AND seq > ${CURSOR}`;

/** The largest seq ever given (AUTOINCREMENT keeps it in sqlite_sequence, also once its row is pruned). */
const LAST_SEQ = "SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'outbox'), 0) AS last";

/**
 * The outbox: notifications in commit order, and their delivery. `append` must run inside the
 * transaction of the change that caused the notification, so the change and its notification commit
 * together or not at all. Notifications go out strictly in seq order, so "delivered up to seq N" is one
 * small durable write (the cursor) per batch of PUBACKs; the rows' own `delivered_at` (read by
 * GET /station/notifications and by pruning) is filled in behind it, in small chunks, by `backfill`.
 */
export function createOutboxRepo(sqlite: Sqlite, station: { site: string; ppsId: string }) {
  const q = {
    // AUTOINCREMENT keeps the largest seq ever used in sqlite_sequence, so a pruned outbox never reuses one.
    nextSeq: sqlite.prepare<[], { next: number }>(
      "SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'outbox'), 0) + 1 AS next",
    ),
    insert: sqlite.prepare(
      "INSERT INTO outbox (seq, notification_id, type, envelope, created_at) VALUES (?, ?, ?, ?, ?)",
    ),
    after: sqlite.prepare<[number, number], OutboxRow>(
      `SELECT seq, notification_id AS notificationId, type, envelope, created_at AS createdAt, delivered_at AS deliveredAt
         FROM outbox WHERE seq > ? ORDER BY seq LIMIT ?`,
    ),
    lastSeq: sqlite.prepare<[], { last: number }>(LAST_SEQ),
    firstSeq: sqlite.prepare<[], { first: number | null }>("SELECT min(seq) AS first FROM outbox"),
    // Not below what a webhook endpoint still needs, enabled or not (docs/webhooks.md#nothing-is-dropped).
    prune: sqlite.prepare(
      `DELETE FROM outbox WHERE delivered_at IS NOT NULL AND delivered_at < ?
         AND seq <= coalesce((SELECT min(coalesce(replay_next - 1, delivered_seq)) FROM webhook_cursors), seq)`,
    ),
    // A webhook endpoint's read: its types only (NULL: all), in seq order, delivered over MQTT or not.
    forWebhook: sqlite.prepare<[number, number, string | null, string | null, number], WebhookRow>(
      `SELECT seq, notification_id AS notificationId, type, CAST(envelope AS BLOB) AS payload, created_at AS createdAt
         FROM outbox WHERE seq > ? AND seq <= ? AND (? IS NULL OR type IN (SELECT value FROM json_each(?)))
         ORDER BY seq LIMIT ?`,
    ),
    oldestForWebhook: sqlite.prepare<[number, string | null, string | null], { createdAt: number }>(
      `SELECT created_at AS createdAt FROM outbox
         WHERE seq > ? AND (? IS NULL OR type IN (SELECT value FROM json_each(?))) ORDER BY seq LIMIT 1`,
    ),
    // The envelope as bytes: published as they are, without a round trip through a JS string.
    pending: sqlite.prepare<[number, number], PendingRow>(
      `SELECT seq, notification_id AS notificationId, CAST(envelope AS BLOB) AS payload
         FROM outbox WHERE delivered_at IS NULL AND seq > ? ORDER BY seq LIMIT ?`,
    ),
    undelivered: sqlite.prepare<[], { n: number }>(`SELECT count(*) AS n FROM outbox WHERE ${UNDELIVERED}`),
    undeliveredBytes: sqlite.prepare<[], { n: number }>(
      `SELECT coalesce(sum(length(CAST(envelope AS BLOB))), 0) AS n FROM outbox WHERE ${UNDELIVERED}`,
    ),
    oldestUndelivered: sqlite.prepare<[], { seq: number; createdAt: number }>(
      `SELECT seq, created_at AS createdAt FROM outbox WHERE ${UNDELIVERED} ORDER BY seq LIMIT 1`,
    ),
    cursor: sqlite.prepare<[], { seq: number }>(`SELECT ${CURSOR} AS seq`),
    setCursor: sqlite.prepare(SET_CURSOR),
    backfill: sqlite.prepare(
      `UPDATE outbox SET delivered_at = ? WHERE seq IN (
         SELECT seq FROM outbox WHERE delivered_at IS NULL AND seq <= ${CURSOR} ORDER BY seq LIMIT ?)`,
    ),
    deadPut: sqlite.prepare(
      `INSERT OR IGNORE INTO outbox_dead (seq, notification_id, type, envelope, reason, reason_code, dead_at)
       SELECT seq, notification_id, type, envelope, ?, ?, ? FROM outbox WHERE seq = ?`,
    ),
    // Taken out of the delivery queue: the publisher reads only rows whose delivered_at is NULL.
    deadMark: sqlite.prepare("UPDATE outbox SET delivered_at = ? WHERE seq = ? AND delivered_at IS NULL"),
    deadList: sqlite.prepare<[number], DeadRow>(
      `SELECT seq, notification_id AS notificationId, type, reason, reason_code AS reasonCode, dead_at AS deadAt
         FROM outbox_dead ORDER BY seq LIMIT ?`,
    ),
    deadCount: sqlite.prepare<[], { n: number }>("SELECT count(*) AS n FROM outbox_dead"),
  };

  /**
   * The seq the next append takes, held in memory so that a notification costs one statement: read
   * once, then counted up by each append. Only this repository appends, and only inside the unit of
   * work, which calls `forget` when a transaction or savepoint rolls back (its seqs are free again).
   */
  let next: number | undefined;

  return {
    append(
      type: NotificationType,
      data: unknown,
      now: number,
    ): { seq: number; notificationId: string; bytes: number } {
      const seq = next ?? q.nextSeq.get()?.next ?? 1;
      const id = notificationId(station.site, station.ppsId, seq);
      const text = JSON.stringify(envelope(type, id, data));
      q.insert.run(seq, id, type, text, now);
      next = seq + 1;
      return { seq, notificationId: id, bytes: Buffer.byteLength(text) };
    },
    /** A rollback may have undone appends: the next seq is read again (services/unit-of-work/unit-of-work.ts). */
    forget(): void {
      next = undefined;
    },
    /** Every notification after `seq`, delivered or not (GET /station/notifications). */
    after: (seq: number, limit: number): OutboxRow[] => q.after.all(seq, limit),
    lastSeq: (): number => q.lastSeq.get()?.last ?? 0,
    /** The oldest seq still kept (delivered rows are pruned), or null when the outbox is empty. */
    firstSeq: (): number | null => q.firstSeq.get()?.first ?? null,
    /** Deletes delivered rows older than `before` (epoch ms); undelivered rows are never pruned. */
    prune: (before: number): number => q.prune.run(before).changes,
    /**
     * A webhook endpoint's next notifications: after `seq` up to `upTo`, of the `types` (JSON array, null:
     * all), oldest first, envelopes as bytes (webhook-delivery/endpoint-delivery.ts).
     */
    forWebhook: (seq: number, upTo: number, types: string | null, limit: number): WebhookRow[] =>
      q.forWebhook.all(seq, upTo, types, types, limit),
    /** When the oldest notification after `seq` of the `types` was committed (a webhook endpoint's lag). */
    oldestForWebhook: (seq: number, types: string | null): number | undefined =>
      q.oldestForWebhook.get(seq, types, types)?.createdAt,
    /** Undelivered notifications after `seq`, oldest first, envelopes as bytes (the publisher's read). */
    pending: (seq: number, limit: number): PendingRow[] => q.pending.all(seq, limit),
    /** How many notifications are undelivered (the one definition, see UNDELIVERED). */
    undeliveredCount: (): number => q.undelivered.get()?.n ?? 0,
    /** The bytes their envelopes take (the outbox's byte limit, `outbox.maxUndeliveredBytes`). */
    undeliveredBytes: (): number => q.undeliveredBytes.get()?.n ?? 0,
    /** The oldest undelivered notification: an index lookup, cheap enough for every scrape. */
    oldestUndelivered: () => q.oldestUndelivered.get(),
    /** Every row up to this seq is delivered or moved aside (the publisher's durable mark). */
    cursor: (): number => q.cursor.get()?.seq ?? 0,
    setCursor(seq: number): void {
      q.setCursor.run(String(seq));
    },
    /** Sets `delivered_at` on up to `limit` rows under the cursor; returns how many. */
    backfill: (now: number, limit: number): number => q.backfill.run(now, limit).changes,
    /**
     * Copies the row to outbox_dead and takes it out of the delivery queue. Two statements: the caller
     * runs them in one transaction (services/unit-of-work/unit-of-work.ts).
     */
    moveAside(seq: number, reason: string, code: number | null, now: number): void {
      q.deadPut.run(reason, code, now, seq);
      q.deadMark.run(now, seq);
    },
    dead: (limit = 100): DeadRow[] => q.deadList.all(limit),
    deadCount: (): number => q.deadCount.get()?.n ?? 0,
    ...createReplayDoors(sqlite),
  };
}

/**
 * Sending dead letters again (services/notifications/dead-letters.service.ts): which rows are dead,
 * putting them back into the queue, and the request another process leaves for the running agent.
 */
function createReplayDoors(sqlite: Sqlite) {
  const q = {
    cursor: sqlite.prepare<[], { seq: number }>(`SELECT ${CURSOR} AS seq`),
    setCursor: sqlite.prepare(SET_CURSOR),
    deadSeqs: sqlite.prepare<[], { seq: number }>("SELECT seq FROM outbox_dead ORDER BY seq"),
    exists: sqlite.prepare<[number], { seq: number }>("SELECT seq FROM outbox WHERE seq = ?"),
    // Rows between the lowest revived seq and the cursor that are delivered but not yet marked so:
    // marked now, so that lowering the cursor below them does not send them again.
    markRange: sqlite.prepare(
      `UPDATE outbox SET delivered_at = ? WHERE delivered_at IS NULL AND seq >= ? AND seq <= ${CURSOR}`,
    ),
    // Back into the queue; a row pruned since it was moved aside comes back from its copy.
    revive: sqlite.prepare(
      `INSERT INTO outbox (seq, notification_id, type, envelope, created_at, delivered_at)
       SELECT seq, notification_id, type, envelope, dead_at, NULL FROM outbox_dead WHERE seq = ?
       ON CONFLICT (seq) DO UPDATE SET delivered_at = NULL`,
    ),
    deadDelete: sqlite.prepare("DELETE FROM outbox_dead WHERE seq = ?"),
    replayGet: sqlite.prepare<[], { value: string }>(
      "SELECT value FROM settings WHERE key = 'outbox.replayRequested'",
    ),
    replayPut: sqlite.prepare(
      `INSERT INTO settings (key, value) VALUES ('outbox.replayRequested', ?)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    ),
    replayDelete: sqlite.prepare("DELETE FROM settings WHERE key = 'outbox.replayRequested'"),
  };
  return {
    /** The seq of every dead letter, in order. */
    deadSeqs: (): number[] => q.deadSeqs.all().map((r) => r.seq),
    /** Whether the outbox holds a row with this seq (delivered or not). */
    has: (seq: number): boolean => q.exists.get(seq) !== undefined,
    /**
     * Puts dead letters back into the delivery queue under their own seq, with their envelopes as
     * committed, and lowers the delivery cursor below the lowest, so they go out again in seq order
     * ahead of everything still waiting (docs/mqtt.md#dead-letters). Several statements: the caller
     * runs them in one transaction; a running publisher must read again from the cursor afterwards.
     */
    revive(seqs: readonly number[], now: number): void {
      const low = Math.min(...seqs);
      if (!Number.isFinite(low)) return;
      q.markRange.run(now, low);
      for (const seq of seqs) {
        q.revive.run(seq);
        q.deadDelete.run(seq);
      }
      if ((q.cursor.get()?.seq ?? 0) >= low) q.setCursor.run(String(low - 1));
    },
    /**
     * A replay asked for by another process (the command line beside a running agent), for the agent
     * to carry out: the seqs, or undefined when none is asked for.
     */
    replayRequested(): number[] | undefined {
      const row = q.replayGet.get();
      return row ? (JSON.parse(row.value) as number[]) : undefined;
    },
    requestReplay(seqs: readonly number[]): void {
      q.replayPut.run(JSON.stringify(seqs));
    },
    /** Takes the request away; whether there was one. */
    clearReplayRequest: (): boolean => q.replayDelete.run().changes > 0,
  };
}

export type OutboxRepo = ReturnType<typeof createOutboxRepo>;

/** The largest seq a station database ever gave, without the repository (a database being restored). */
export function lastOutboxSeq(sqlite: Sqlite): number {
  return (sqlite.prepare(LAST_SEQ).get() as { last: number }).last;
}

/**
 * Numbers the next notifications after `seq`, the largest a replaced database gave (a restore of an
 * older backup, db/restore.ts), so that no notification_id is given twice: consumers dedupe on it and
 * would drop a new notification under an id they saw before the restore. Raises, never lowers.
 */
export function continueSequenceAfter(sqlite: Sqlite, seq: number): void {
  sqlite.transaction(() => {
    const raised = sqlite
      .prepare("UPDATE sqlite_sequence SET seq = ? WHERE name = 'outbox' AND seq < ?")
      .run(seq, seq).changes;
    if (raised === 0 && lastOutboxSeq(sqlite) === 0 && seq > 0)
      sqlite.prepare("INSERT INTO sqlite_sequence (name, seq) VALUES ('outbox', ?)").run(seq);
  })();
}
