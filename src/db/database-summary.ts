/**
 * A read-only look at a station database for `pps-edge diag`: what the outbox holds (the outbox
 * repository's own counts, so "undelivered" means what /readyz and /metrics mean), the migrations
 * applied and `PRAGMA integrity_check`. Beside a running agent too: it reads the WAL, never writes.
 */
import Database from "better-sqlite3";
import { databaseProblems } from "./integrity.js";
import { createOutboxRepo } from "./outbox.repo.js";

export interface DatabaseSummary {
  sqliteVersion: string;
  migrations: number;
  undelivered: number;
  dead: number;
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
      problems: databaseProblems(sqlite, "full"),
    };
  } finally {
    sqlite.close();
  }
}
