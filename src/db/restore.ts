/**
 * `pps-edge restore FILE`: puts a backup in place of the station database, with no agent on the data
 * folder. The restore holds the agent's lock (db/agent-lock.ts) throughout, so it is refused while an
 * agent runs and no agent starts halfway. FILE is copied in through SQLite (db/backup.ts: its WAL
 * included, checked with `PRAGMA integrity_check`) before anything of the station changes, so a file
 * that is no database, is damaged or comes from a newer pps-edge leaves the station as it was.
 *
 * The database it replaces is first folded into one file (its WAL checkpointed, journal_mode DELETE:
 * this also fails while another process, such as a `pps-edge user` command, has it open; a file SQLite
 * cannot read keeps its WAL beside it instead) and kept in `backups/` as
 * `before-restore-<UTC stamp>.sqlite`: not `*.db`, so it is neither pruned nor named as
 * "the newest backup" by the damaged-database start error. The new file then replaces the old by a
 * rename, so a power cut leaves one or the other, never none; no -wal of the old database is left
 * beside the new one (SQLite would replay it onto the wrong file). An older schema is fine: the agent
 * migrates at its next start.
 */
import { copyFileSync, existsSync, linkSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { fsyncPath } from "../durable-file.js";
import { type LockHolder, lockDataFolder } from "./agent-lock.js";
import { backupsDir, copyDatabase, fileStamp, ownLikeDataFolder } from "./backup.js";
import { DB_FILE, shippedMigrationCount } from "./open.js";
import { continueSequenceAfter, lastOutboxSeq } from "./outbox.repo.js";

export interface RestoreResult {
  database: string;
  /** Where the replaced database was kept, if there was one. */
  keptAside?: string;
  /**
   * The replaced database's largest notification seq when it was larger than the restored one's: the
   * next notifications are numbered after it. null: the replaced database could not be read.
   */
  continuesAfter?: number | null;
  /** Migrations applied in the restored file, and how many this version ships. */
  migrations: { restored: number; shipped: number };
}

/** The restore was refused: nothing of the station changed. */
export class RestoreRefused extends Error {}

function holderText(h: LockHolder): string {
  return h ? `pid ${h.pid}, running since ${h.since}` : "its pid could not be read";
}

/** The restored file's applied migrations; refuses a SQLite file that is no station database. */
function appliedMigrations(path: string, file: string): number {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const row = db.prepare("SELECT count(*) AS n FROM __drizzle_migrations").get() as { n: number };
    return row.n;
  } catch {
    throw new RestoreRefused(`${file} is a SQLite database but not a pps-edge station database`);
  } finally {
    db.close();
  }
}

/**
 * Folds the WAL into the database file and leaves it in journal_mode DELETE. "busy": another process
 * has it open; "unreadable": SQLite cannot (a damaged file, the reason for many a restore).
 */
function foldWal(path: string): "folded" | "busy" | "unreadable" {
  try {
    const db = new Database(path, { fileMustExist: true, timeout: 0 });
    try {
      // Leaving WAL mode takes the exclusive lock first (refused while another connection is open, and
      // then nothing is written), then checkpoints every frame into the file and removes the WAL.
      return db.pragma("journal_mode = DELETE", { simple: true }) === "delete" ? "folded" : "busy";
    } finally {
      db.close();
    }
  } catch (e) {
    const code = (e as { code?: string }).code ?? "";
    return code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED") ? "busy" : "unreadable";
  }
}

/** The largest notification seq of a database file, or null when it cannot be read. */
function lastSeqOf(path: string): number | null {
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      return lastOutboxSeq(db);
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}

/** Keeps the current database in `backups/`; answers where, or undefined when there was none. */
function keepAside(dataDir: string, now: Date): { path: string; lastSeq: number | null } | undefined {
  const current = join(dataDir, DB_FILE);
  if (!existsSync(current)) return undefined;
  if (!existsSync(backupsDir(dataDir))) {
    mkdirSync(backupsDir(dataDir));
    ownLikeDataFolder(backupsDir(dataDir), dataDir);
  }
  const aside = join(backupsDir(dataDir), `before-restore-${fileStamp(now)}.sqlite`);
  // Its WAL as it is, before SQLite opens the file: closing a database it cannot read, SQLite deletes a
  // WAL it finds no valid frame in, and a damaged file's WAL is evidence worth keeping.
  const wal = `${current}-wal`;
  if (existsSync(wal)) copyFileSync(wal, `${aside}-wal`);
  const folded = foldWal(current);
  if (folded !== "unreadable") rmSync(`${aside}-wal`, { force: true }); // folded in, or nothing done
  if (folded === "busy") {
    throw new RestoreRefused(
      `the database ${current} is open in another process (a pps-edge command?); close it and try again`,
    );
  }
  try {
    linkSync(current, aside); // the same file under a second name: no copy, nothing to run out of
  } catch {
    copyFileSync(current, aside);
  }
  fsyncPath(backupsDir(dataDir));
  return { path: aside, lastSeq: folded === "folded" ? lastSeqOf(aside) : null };
}

/**
 * Numbers the restored database's next notifications after the replaced one's (outbox.repo.ts
 * `continueSequenceAfter`); answers that seq when it raised it, null when the replaced one was unreadable.
 */
function continueAfter(incoming: string, replacedLast: number | null): number | null | undefined {
  if (replacedLast === null) return null;
  const db = new Database(incoming, { fileMustExist: true });
  try {
    if (lastOutboxSeq(db) >= replacedLast) return undefined;
    continueSequenceAfter(db, replacedLast);
    return replacedLast;
  } finally {
    db.close();
  }
}

/** Restores `file` into the data folder (see above). Throws RestoreRefused when it may not. */
export async function restoreDatabase(dataDir: string, file: string, now: Date): Promise<RestoreResult> {
  if (!existsSync(file)) throw new RestoreRefused(`no file ${file}`);
  mkdirSync(dataDir, { recursive: true });
  const taken = lockDataFolder(dataDir, now.toISOString());
  if ("heldBy" in taken) {
    throw new RestoreRefused(
      `an agent runs on ${dataDir} (${holderText(taken.heldBy)}); stop it first (systemctl stop pps-edge)`,
    );
  }
  const database = join(dataDir, DB_FILE);
  const incoming = `${database}.restoring`;
  try {
    try {
      await copyDatabase(file, incoming);
    } catch (e) {
      throw new RestoreRefused(e instanceof Error ? e.message : String(e));
    }
    const migrations = { restored: appliedMigrations(incoming, file), shipped: shippedMigrationCount() };
    if (migrations.restored > migrations.shipped) {
      throw new RestoreRefused(
        `${file} was written by a newer pps-edge (${migrations.restored} migrations; this one knows ${migrations.shipped}): install that version to restore it`,
      );
    }
    const kept = keepAside(dataDir, now);
    const continuesAfter = kept ? continueAfter(incoming, kept.lastSeq) : undefined;
    // nothing of the old database may stay beside the new one: a stale -wal would be replayed onto it
    rmSync(`${database}-wal`, { force: true });
    rmSync(`${database}-shm`, { force: true });
    ownLikeDataFolder(incoming, dataDir);
    renameSync(incoming, database);
    fsyncPath(dataDir);
    return { database, keptAside: kept?.path, continuesAfter, migrations };
  } finally {
    rmSync(incoming, { force: true });
    taken.lock.release();
  }
}
