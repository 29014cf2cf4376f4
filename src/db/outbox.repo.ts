import { envelope, type NotificationType, notificationId } from "../domain/notification.js";
import type { Sqlite } from "./open.js";
import type { SqlRow } from "./row.types.js";
import type { outbox } from "./schema.js";

export type OutboxRow = SqlRow<typeof outbox>;

/**
 * The outbox: notifications in commit order. `append` must run inside the transaction of the change
 * that caused the notification, so the change and its notification commit together or not at all.
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
    undeliveredAfter: sqlite.prepare<[number, number], OutboxRow>(
      `SELECT seq, notification_id AS notificationId, type, envelope, created_at AS createdAt, delivered_at AS deliveredAt
         FROM outbox WHERE delivered_at IS NULL AND seq > ? ORDER BY seq LIMIT ?`,
    ),
    markDelivered: sqlite.prepare(
      "UPDATE outbox SET delivered_at = ? WHERE seq = ? AND delivered_at IS NULL",
    ),
    markDeliveredUpTo: sqlite.prepare(
      "UPDATE outbox SET delivered_at = ? WHERE seq <= ? AND delivered_at IS NULL",
    ),
    stats: sqlite.prepare<[], { undelivered: number; oldest: number | null; total: number }>(
      `SELECT (SELECT count(*) FROM outbox WHERE delivered_at IS NULL) AS undelivered,
              (SELECT min(created_at) FROM outbox WHERE delivered_at IS NULL) AS oldest,
              (SELECT count(*) FROM outbox) AS total`,
    ),
    lastSeq: sqlite.prepare<[], { last: number }>(
      "SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'outbox'), 0) AS last",
    ),
    prune: sqlite.prepare("DELETE FROM outbox WHERE delivered_at IS NOT NULL AND delivered_at < ?"),
  };

  return {
    append(type: NotificationType, data: unknown, now: number): { seq: number; notificationId: string } {
      const seq = q.nextSeq.get()?.next ?? 1;
      const id = notificationId(station.site, station.ppsId, seq);
      q.insert.run(seq, id, type, JSON.stringify(envelope(type, id, data)), now);
      return { seq, notificationId: id };
    },
    after: (seq: number, limit: number): OutboxRow[] => q.after.all(seq, limit),
    undeliveredAfter: (seq: number, limit: number): OutboxRow[] => q.undeliveredAfter.all(seq, limit),
    markDelivered(seq: number, now: number): void {
      q.markDelivered.run(now, seq);
    },
    markDeliveredUpTo(seq: number, now: number): void {
      q.markDeliveredUpTo.run(now, seq);
    },
    stats: () => q.stats.get() ?? { undelivered: 0, oldest: null, total: 0 },
    lastSeq: (): number => q.lastSeq.get()?.last ?? 0,
    /** Deletes delivered rows older than `before` (epoch ms); undelivered rows are never pruned. */
    prune: (before: number): number => q.prune.run(before).changes,
  };
}

export type OutboxRepo = ReturnType<typeof createOutboxRepo>;
