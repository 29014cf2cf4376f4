/**
 * Backups of the station database: one owner for `pps-edge backup`, the package's upgrade step and the
 * MQTT request `backup` (docs/mqtt.md#requests-and-responses).
 *
 * SQLite's online backup API (sqlite.org/backup.html) through better-sqlite3, from a read-only
 * connection of its own: it never migrates and never writes the station database, and it works beside a
 * running agent as well as without one. The backup restarts when another connection writes the source
 * between two steps, so under a steady write load a backup in small steps may never finish. It copies
 * every page in one step instead: one read transaction, so the copy is one consistent snapshot (every
 * change committed before the step began, none half), and in WAL mode the agent keeps writing meanwhile.
 * The copy is written under a temporary name, checked with `PRAGMA integrity_check`, made a single
 * self-contained file (journal_mode DELETE: no -wal beside it), synced, and only then renamed into place.
 * Inside the agent all of this runs in a worker thread (db/backup-off-loop.ts): the step, the check and
 * the hash take time in proportion to the database's size.
 */
import { createHash } from "node:crypto";
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import Database from "better-sqlite3";
import { fsyncPath, removeLeftovers } from "../durable-file.js";
import { BACKUPS_DIR, databaseProblems } from "./integrity.js";
import { DB_FILE } from "./open.js";

/** A backup written: where, how large, and its SHA-256 (hex), as `pps-edge backup` prints them. */
export interface BackupResult {
  path: string;
  name: string;
  size: number;
  sha256: string;
}

/** sqlite3_backup_step's page count for "all of them" (better-sqlite3 caps the rate at 2^31 - 1). */
const ALL_PAGES = 0x7fffffff;

/** The backups `pps-edge backup` names itself: `pps-edge-<UTC stamp>.db`, oldest first by name. */
const STAMPED = /^pps-edge-\d{8}T\d{6}\.\d{3}Z\.db$/;

/** `2026-11-24T09:04:58.123Z` → `20261124T090458.123Z`: sorts by time, no colons (safe in any file system). */
export function fileStamp(at: Date): string {
  return at.toISOString().replace(/[-:]/g, "");
}

/** The folder of the data folder's backups (db/integrity.ts `lastBackup` looks there). */
export function backupsDir(dataDir: string): string {
  return join(dataDir, BACKUPS_DIR);
}

/** A new backup's path in `<dataDir>/backups/`, named after `at` (never one that exists). */
export function stampedBackupPath(dataDir: string, at: Date): string {
  let t = at.getTime();
  let path = join(backupsDir(dataDir), `pps-edge-${fileStamp(new Date(t))}.db`);
  // two backups within one millisecond (a retried request): the next free millisecond
  while (existsSync(path)) path = join(backupsDir(dataDir), `pps-edge-${fileStamp(new Date(++t))}.db`);
  return path;
}

function reason(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * Gives what root wrote into the data folder to the folder's owner (the service's user): a maintainer's
 * `sudo pps-edge backup` or `restore` must not leave a backups folder or a database the agent cannot
 * write. Nothing to do for anyone else: their files are theirs already.
 */
export function ownLikeDataFolder(path: string, dataDir: string): void {
  if (process.getuid?.() !== 0) return;
  const { uid, gid } = statSync(dataDir);
  chownSync(path, uid, gid);
}

/**
 * Copies the database `source` (its WAL included) into the new file `target` in one step, checks the
 * copy and makes it a single file. Throws (and leaves no `target`) when the source is no database or
 * the copy is damaged. Used by the backup and by the restore (db/restore.ts), which checks the same way.
 */
export async function copyDatabase(source: string, target: string): Promise<void> {
  let src: Database.Database;
  try {
    src = new Database(source, { readonly: true, fileMustExist: true });
  } catch (e) {
    throw new Error(`cannot read ${source}: ${reason(e)}`);
  }
  rmSync(target, { force: true });
  try {
    await src.backup(target, { progress: () => ALL_PAGES });
  } catch (e) {
    rmSync(target, { force: true });
    const what =
      (e as { code?: string }).code === "SQLITE_NOTADB" ? `${source} is not a SQLite database` : reason(e);
    throw new Error(what.startsWith(source) ? what : `cannot copy ${source} to ${target}: ${what}`);
  } finally {
    src.close();
  }
  try {
    checkCopy(target);
  } catch (e) {
    rmSync(target, { force: true });
    throw e;
  }
}

/** The copy is whole and stands alone: integrity_check, then journal_mode DELETE (no -wal file). */
function checkCopy(path: string): void {
  const copy = new Database(path, { fileMustExist: true });
  try {
    const problems = databaseProblems(copy, "full");
    if (problems.length > 0)
      throw new Error(`the copy fails PRAGMA integrity_check: ${problems.slice(0, 3).join("; ")}`);
    copy.pragma("journal_mode = DELETE");
  } finally {
    copy.close();
  }
  fsyncPath(path);
}

/** Size and SHA-256 of a written file, read in chunks (a large database is not held in memory). */
function describe(path: string): BackupResult {
  const hash = createHash("sha256");
  const chunk = Buffer.alloc(1 << 20);
  const fd = openSync(path, "r");
  let size = 0;
  try {
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) {
      hash.update(chunk.subarray(0, n));
      size += n;
    }
  } finally {
    closeSync(fd);
  }
  return { path, name: basename(path), size, sha256: hash.digest("hex") };
}

/**
 * Backs up the database file `source` into `target`, a new file (an existing one is refused: a typo
 * must not overwrite the station database or an earlier backup). Written as `<target>.partial` first.
 */
export async function backupDatabase(source: string, target: string): Promise<BackupResult> {
  if (!existsSync(source)) throw new Error(`no database at ${source}`);
  if (existsSync(target))
    throw new Error(`${target} exists: name a new file (a backup never overwrites one)`);
  const dir = dirname(target);
  if (!existsSync(dir)) throw new Error(`cannot write ${target}: the folder ${dir} does not exist`);
  const partial = `${target}.partial`;
  // what an interrupted backup to the same name left (the copy and SQLite's side files of it)
  for (const left of [partial, `${partial}-journal`, `${partial}-wal`, `${partial}-shm`])
    rmSync(left, { force: true });
  await copyDatabase(source, partial);
  // a backup holds password and token hashes: owner-only whatever the umask of who ran it
  chmodSync(partial, 0o600);
  renameSync(partial, target);
  fsyncPath(dir);
  return describe(target);
}

/**
 * Keeps the newest `keep` stamped backups in `dir` and removes the older ones; `spare` (the backup just
 * written) is kept whatever its name says, should the clock have gone back. Other files (a backup named
 * by hand, the database a restore put aside) are never touched. Answers the removed paths.
 */
export function pruneBackups(dir: string, keep: number, spare?: string): string[] {
  const names = readdirSync(dir)
    .filter((n) => STAMPED.test(n) && join(dir, n) !== spare)
    .sort()
    .reverse();
  const stale = names.slice(Math.max(0, keep - (spare ? 1 : 0)));
  for (const name of stale) rmSync(join(dir, name), { force: true });
  return stale.map((n) => join(dir, n));
}

/** How many stamped backups `pps-edge backup` and the upgrade keep by default. */
export const DEFAULT_KEEP = 5;

/**
 * A backup of the data folder's database into `<dataDir>/backups/pps-edge-<UTC stamp>.db`, then the
 * folder pruned to the newest `keep` (the package's upgrade step, and the MQTT request `backup`).
 * `copy` writes the file: `backupDatabase` here, or in a worker thread inside the agent
 * (db/backup-off-loop.ts), where the event loop must stay free.
 */
export async function backupIntoDataFolder(
  dataDir: string,
  opts: { keep: number; now: Date; copy?: (source: string, target: string) => Promise<BackupResult> },
): Promise<BackupResult & { pruned: string[] }> {
  const dir = backupsDir(dataDir);
  const source = join(dataDir, DB_FILE);
  if (!existsSync(source)) throw new Error(`no database at ${source}`);
  if (!existsSync(dir)) {
    mkdirSync(dir);
    ownLikeDataFolder(dir, dataDir);
  }
  removeBackupLeftovers(dataDir);
  const result = await (opts.copy ?? backupDatabase)(source, stampedBackupPath(dataDir, opts.now));
  ownLikeDataFolder(result.path, dataDir);
  return { ...result, pruned: pruneBackups(dir, opts.keep, result.path) };
}

/**
 * Removes what interrupted backups left in the data folder's backups (a `.partial` copy and its side
 * files, temporary files of durable writes): at the next backup and at every start. The finished
 * backups are never touched. Answers the removed paths.
 */
export function removeBackupLeftovers(dataDir: string): string[] {
  return removeLeftovers(backupsDir(dataDir), [".partial"]);
}
