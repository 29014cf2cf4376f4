/**
 * Which pps-edge wrote the station database, so an older one refuses it (issue 10, "Upgrade and
 * rollback"). drizzle records each applied migration in `__drizzle_migrations` by its journal time
 * (`created_at` = the `when` of drizzle/meta/_journal.json) and a hash, and applies only migrations newer
 * than the newest row: an older build on a newer database would apply nothing and run on a schema it
 * does not know. So a database with a migration row this build's journal does not list is refused
 * before anything is written. The row holds neither a name nor a version, so each open also records
 * the agent's version and the newest migration it knows in `settings` (`agent.writtenBy`): the refusal
 * names the version to install again.
 */
import { readFileSync } from "node:fs";
import type Database from "better-sqlite3";

type Sqlite = Database.Database;

/** A migration as the journal lists it: its file's tag and its time (drizzle's `folderMillis`). */
export interface ShippedMigration {
  tag: string;
  when: number;
}

/** What the newest open recorded: the agent's version and the newest migration it shipped. */
export interface Writer {
  version: string;
  migration: string;
  when: number;
}

/** A database with migrations this build does not know, and what is known of who applied them. */
export interface NewerDatabase {
  /** The newest unknown migration's time. */
  newestAt: number;
  /** How many applied migrations this build does not know. */
  unknown: number;
  /** The agent that applied the newest one, when its record says so. */
  writer: Writer | undefined;
  /** This build's version. */
  thisVersion: string;
}

const WRITER_KEY = "agent.writtenBy";

/** The migrations of drizzle/ (its journal), oldest first. */
export function shippedMigrations(dir: string): ShippedMigration[] {
  const journal = JSON.parse(readFileSync(`${dir}/meta/_journal.json`, "utf8")) as {
    entries: ShippedMigration[];
  };
  return journal.entries.map(({ tag, when }) => ({ tag, when }));
}

const hasTable = (sqlite: Sqlite, name: string) =>
  sqlite.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;

function writerOf(sqlite: Sqlite): Writer | undefined {
  if (!hasTable(sqlite, "settings")) return undefined;
  const row = sqlite.prepare("SELECT value FROM settings WHERE key = ?").get(WRITER_KEY) as
    | { value: string }
    | undefined;
  try {
    return row ? (JSON.parse(row.value) as Writer) : undefined;
  } catch {
    return undefined;
  }
}

/** The database's applied migrations this build does not know, if any; reads only. */
export function newerThanThisBuild(
  sqlite: Sqlite,
  shipped: ShippedMigration[],
  thisVersion: string,
): NewerDatabase | undefined {
  if (!hasTable(sqlite, "__drizzle_migrations")) return undefined;
  const known = new Set(shipped.map((m) => m.when));
  const applied = sqlite.prepare("SELECT created_at AS at FROM __drizzle_migrations").all() as Array<{
    at: number | string;
  }>;
  const unknown = applied.map((r) => Number(r.at)).filter((at) => !known.has(at));
  if (unknown.length === 0) return undefined;
  const newestAt = Math.max(...unknown);
  const writer = writerOf(sqlite);
  // a record older than the newest migration was written before it, by another version
  return {
    newestAt,
    unknown: unknown.length,
    writer: writer?.when === newestAt ? writer : undefined,
    thisVersion,
  };
}

/** Records this build as the database's writer (after its migrations ran); no write when unchanged. */
export function recordWriter(sqlite: Sqlite, version: string, shipped: ShippedMigration[]): void {
  const newest = shipped.at(-1);
  if (!newest) return;
  const value = JSON.stringify({ version, migration: newest.tag, when: newest.when } satisfies Writer);
  sqlite
    .prepare(
      "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value WHERE value <> excluded.value",
    )
    .run(WRITER_KEY, value);
}

/** Who wrote a newer database, for a message: `pps-edge 0.2.0 (migration 0007_x)`, or what is known. */
export function describeWriter(found: NewerDatabase): string {
  if (found.writer) return `pps-edge ${found.writer.version} (migration ${found.writer.migration})`;
  return `a newer pps-edge (a migration of ${new Date(found.newestAt).toISOString()})`;
}

/** Thrown by `openDatabase` before anything is written to a database a newer version migrated. */
export class NewerDatabaseError extends Error {
  constructor(readonly found: NewerDatabase) {
    super(`the database was written by ${describeWriter(found)}, this is ${found.thisVersion}`);
    this.name = "NewerDatabaseError";
  }
}
