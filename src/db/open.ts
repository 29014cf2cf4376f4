import { chmodSync, existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { type BetterSQLite3Database, drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { VERSION } from "../version.js";
import * as schema from "./tables.js";
import {
  type NewerDatabase,
  NewerDatabaseError,
  newerThanThisBuild,
  recordWriter,
  shippedMigrations,
} from "./written-by.js";

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
 * from drizzle/. `:memory:` works for tests that need no file. A database that a newer version migrated
 * is refused with a NewerDatabaseError before anything is written to it (db/written-by.ts); once
 * migrated, the database records this version as its writer.
 */
export function openDatabase(path: string, opts: OpenOptions = {}): DatabaseHandle {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const created = path !== ":memory:" && !existsSync(path);
  const sqlite = new Database(path);
  // the database holds password and token hashes: owner-only whatever the umask (SQLite gives its
  // -wal and -shm files the database file's mode)
  if (created) chmodSync(path, 0o600);
  try {
    // WAL: readers never block the writer; synchronous=FULL syncs the WAL on every commit.
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma(`synchronous = ${opts.synchronous ?? "FULL"}`);
    sqlite.pragma("foreign_keys = ON");
    sqlite.pragma(`busy_timeout = ${opts.busyTimeoutMs ?? 5000}`);
    sqlite.pragma("temp_store = MEMORY");
    opts.check?.(sqlite);
    const shipped = shippedMigrations(MIGRATIONS_DIR);
    const newer = newerThanThisBuild(sqlite, shipped, VERSION);
    if (newer) throw new NewerDatabaseError(newer);
    const db = drizzle(sqlite, { schema });
    migrate(db, { migrationsFolder: MIGRATIONS_DIR });
    recordWriter(sqlite, VERSION, shipped);
    return { sqlite, db, close: () => sqlite.close() };
  } catch (e) {
    sqlite.close();
    throw e;
  }
}

/**
 * Whether the database file at `path` was migrated by a newer version than this one, read-only (beside
 * a running agent too): `pps-edge check`, and the choice of a backup to restore.
 */
export function newerDatabaseIn(path: string): NewerDatabase | undefined {
  const sqlite = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return newerThanThisBuild(sqlite, shippedMigrations(MIGRATIONS_DIR), VERSION);
  } finally {
    sqlite.close();
  }
}

/** The number of migrations shipped in drizzle/ (its journal). */
export function shippedMigrationCount(dir: string = MIGRATIONS_DIR): number {
  return shippedMigrations(dir).length;
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
