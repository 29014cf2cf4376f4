import { mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { type BetterSQLite3Database, drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import * as schema from "./schema.js";

/** The drizzle database with its connection (`$client`), for the few statements drizzle cannot express. */
export type Db = BetterSQLite3Database<typeof schema> & { $client: Sqlite };
export type Sqlite = Database.Database;
/** A function wrapped by `sqlite.transaction()` (with its `.immediate` variant). */
export type SqliteTransaction<F extends (...args: never[]) => unknown> = Database.Transaction<F>;

export interface DatabaseHandle {
  sqlite: Sqlite;
  db: Db;
  close(): void;
}

export interface OpenOptions {
  /** `FULL` by default: a committed transaction survives power loss in WAL mode (docs/architecture.md#durability-and-limits). */
  synchronous?: "FULL" | "NORMAL" | "EXTRA";
  busyTimeoutMs?: number;
  /**
   * Runs once the pragmas are set and before any migration writes: throws to refuse the database (the
   * agent's start checks that it is whole, db/integrity.ts).
   */
  check?: (sqlite: Sqlite) => void;
}

/** The station database's file in the data folder (`dataDir`). */
export const DB_FILE = "pps-edge.db";

/** drizzle/ sits at the package root, two levels above both src/db and dist/db. */
export const MIGRATIONS_DIR = fileURLToPath(new URL("../../drizzle", import.meta.url));

/**
 * Opens (creating if needed) the station database, sets the pragmas and applies pending migrations
 * from drizzle/. `:memory:` works for tests that need no file.
 */
export function openDatabase(path: string, opts: OpenOptions = {}): DatabaseHandle {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path);
  try {
    // WAL: readers never block the writer; synchronous=FULL syncs the WAL on every commit.
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma(`synchronous = ${opts.synchronous ?? "FULL"}`);
    sqlite.pragma("foreign_keys = ON");
    sqlite.pragma(`busy_timeout = ${opts.busyTimeoutMs ?? 5000}`);
    sqlite.pragma("temp_store = MEMORY");
    opts.check?.(sqlite);
    const db = drizzle(sqlite, { schema });
    migrate(db, { migrationsFolder: MIGRATIONS_DIR });
    return { sqlite, db, close: () => sqlite.close() };
  } catch (e) {
    sqlite.close();
    throw e;
  }
}

/** The number of migrations shipped in drizzle/ (its journal). */
export function shippedMigrationCount(dir: string = MIGRATIONS_DIR): number {
  const journal = JSON.parse(readFileSync(`${dir}/meta/_journal.json`, "utf8")) as { entries: unknown[] };
  return journal.entries.length;
}

/** True when the database answers and every shipped migration is applied (GET /readyz). */
export function isMigrated(sqlite: Sqlite, expected: number): boolean {
  try {
    const row = sqlite.prepare("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number };
    return row.n >= expected;
  } catch {
    return false;
  }
}
