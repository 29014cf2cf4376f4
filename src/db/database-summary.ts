/**
 * A read-only look at a station database for `pps-edge diag`: what the outbox holds (the outbox
 * repository's own counts, so "undelivered" means what /readyz and /metrics mean), the migrations
 * applied and `PRAGMA integrity_check`. Beside a running agent too: it reads the WAL, never writes.
 */
import Database from "better-sqlite3";
import { databaseProblems } from "./integrity.js";
import { createOutboxRepo } from "./outbox.repo.js";
import { createWebhooksRepo } from "./webhooks.repo.js";

/** One webhook endpoint as `diag` reports it (docs/webhooks.md#observability); never its secret. */
export interface WebhookSummary {
  id: string;
  enabled: boolean;
  disabledReason: string | null;
  deliveredSeq: number;
  /** When the oldest notification it still wants was committed (epoch ms), if any. */
  oldestWanted: number | undefined;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
}

export interface DatabaseSummary {
  sqliteVersion: string;
  migrations: number;
  undelivered: number;
  dead: number;
  webhooks: WebhookSummary[];
  problems: string[];
}

export function databaseSummary(path: string, station: { site: string; ppsId: string }): DatabaseSummary {
  const sqlite = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const outbox = createOutboxRepo(sqlite, station);
    const count = (sql: string) => (sqlite.prepare(sql).get() as { n: number }).n;
    return {
      sqliteVersion: (sqlite.prepare("SELECT sqlite_version() AS v").get() as { v: string }).v,
      migrations: count("SELECT count(*) AS n FROM __drizzle_migrations"),
      undelivered: outbox.undeliveredCount(),
      dead: outbox.deadCount(),
      // a database from before webhooks has no such table: read-only, so it is not migrated here
      webhooks: hasTable(sqlite, "webhook_cursors")
        ? createWebhooksRepo(sqlite)
            .list()
            .map((r) => ({
              id: r.id,
              enabled: r.enabled === 1,
              disabledReason: r.disabledReason,
              deliveredSeq: r.deliveredSeq,
              oldestWanted: outbox.oldestForWebhook(r.deliveredSeq, r.types),
              attempts: r.attempts,
              lastStatus: r.lastStatus,
              lastError: r.lastError,
            }))
        : [],
      problems: databaseProblems(sqlite, "full"),
    };
  } finally {
    sqlite.close();
  }
}

function hasTable(sqlite: Database.Database, name: string): boolean {
  return (
    sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined
  );
}
