import type {
  SecurityChannel,
  SecurityEvent,
  SecurityEventKind,
  SecurityEventQuery,
} from "../domain/security-event.js";
import type { Sqlite } from "./open.js";

/** One row as written (tables/auth.table.ts, `security_events`); `detail` is JSON text. */
export interface SecurityEventRow {
  at: number;
  kind: SecurityEventKind;
  channel: SecurityChannel;
  username: string | null;
  address: string | null;
  detail: string | null;
}

type StoredRow = Omit<SecurityEventRow, "detail"> & { id: number; detail: string | null };

function parsed(row: StoredRow): SecurityEvent {
  return { ...row, detail: row.detail === null ? null : (JSON.parse(row.detail) as SecurityEvent["detail"]) };
}

/**
 * The security event log (docs/security.md#security-event-log): one small insert per event, read newest
 * first in pages below an id, pruned by age and by count.
 */
export function createSecurityEventsRepo(sqlite: Sqlite) {
  const q = {
    insert: sqlite.prepare(
      `INSERT INTO security_events (at, kind, channel, username, address, detail)
       VALUES (@at, @kind, @channel, @username, @address, @detail)`,
    ),
    pruneBefore: sqlite.prepare("DELETE FROM security_events WHERE at < ?"),
    // keeps the newest `maxRows`: ids grow with time (AUTOINCREMENT)
    pruneBeyond: sqlite.prepare(
      `DELETE FROM security_events WHERE id <= (SELECT id FROM security_events ORDER BY id DESC LIMIT 1 OFFSET ?)`,
    ),
  };
  return {
    insert(row: SecurityEventRow): void {
      q.insert.run(row);
    },
    /** Newest first; every filter optional. */
    list(query: SecurityEventQuery): SecurityEvent[] {
      const where: string[] = [];
      const args: Array<string | number> = [];
      const add = (clause: string, value: string | number | undefined) => {
        if (value === undefined) return;
        where.push(clause);
        args.push(value);
      };
      add("at >= ?", query.since);
      add("at < ?", query.until);
      add("kind = ?", query.kind);
      add("username = ?", query.username);
      add("id < ?", query.beforeId);
      const sql = `SELECT id, at, kind, channel, username, address, detail FROM security_events
        ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY id DESC LIMIT ?`;
      return sqlite
        .prepare<unknown[], StoredRow>(sql)
        .all(...args, query.limit)
        .map(parsed);
    },
    /** Deletes events older than `before` (epoch ms), then all but the newest `maxRows`. */
    prune(before: number, maxRows: number): number {
      return q.pruneBefore.run(before).changes + q.pruneBeyond.run(maxRows).changes;
    },
  };
}

export type SecurityEventsRepo = ReturnType<typeof createSecurityEventsRepo>;
