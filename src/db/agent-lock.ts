/**
 * One agent per data folder. Two agents on one database would each drive the station's lights from
 * their own engine and publish the same outbox twice, so the second one must refuse to start.
 *
 * Node has no flock(2), but SQLite locks files with the operating system's locks (fcntl on Unix), which
 * die with the process: a killed agent leaves no stale lock behind. The lock is a small SQLite file
 * beside the database whose write lock (a transaction begun IMMEDIATE, never committed) the agent
 * holds for its lifetime; a second agent, asking with no busy timeout, gets SQLITE_BUSY at once. The
 * holder's pid is committed in the file before the lock is taken, so the refused one can name it. The
 * database itself is not locked this way: the command line's `user` commands work while the agent runs.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";

export const LOCK_FILE = "agent.lock";

export interface AgentLock {
  release(): void;
}

/** Who holds the folder: the pid and start time it wrote, or null when it could not be read. */
export type LockHolder = { pid: number; since: string } | null;

function isBusy(e: unknown): boolean {
  const code = (e as { code?: string }).code ?? "";
  return code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED");
}

function holderOf(sqlite: Database.Database): LockHolder {
  try {
    const row = sqlite.prepare("SELECT pid, since FROM holder").get() as LockHolder | undefined;
    return row ?? null;
  } catch {
    return null; // the holder is between its two steps, or an older file: the folder is still held
  }
}

/** Takes the data folder's lock, or names who holds it. `since` is the holder's start (ISO 8601). */
export function lockDataFolder(dir: string, since: string): { lock: AgentLock } | { heldBy: LockHolder } {
  // timeout 0: SQLITE_BUSY at once instead of waiting for the other agent to stop
  const sqlite = new Database(join(dir, LOCK_FILE), { timeout: 0 });
  try {
    sqlite.exec("BEGIN IMMEDIATE");
    sqlite.exec("CREATE TABLE IF NOT EXISTS holder (pid INTEGER NOT NULL, since TEXT NOT NULL)");
    sqlite.exec("DELETE FROM holder");
    sqlite.prepare("INSERT INTO holder (pid, since) VALUES (?, ?)").run(process.pid, since);
    sqlite.exec("COMMIT");
    // Held from here: the pid above is readable by the one refused (a reader is not blocked by it).
    sqlite.exec("BEGIN IMMEDIATE");
  } catch (e) {
    if (!isBusy(e)) {
      sqlite.close();
      throw e;
    }
    const heldBy = holderOf(sqlite);
    sqlite.close();
    return { heldBy };
  }
  return {
    lock: {
      release: () => {
        if (!sqlite.open) return;
        sqlite.exec("ROLLBACK");
        sqlite.close();
      },
    },
  };
}

/**
 * Whether an agent holds the data folder, without taking it (`pps-edge status`): its pid and start
 * time, or null when none runs. A write lock asked for and given back at once, no busy wait.
 */
export function agentHolding(dir: string): { holder: LockHolder } | null {
  const path = join(dir, LOCK_FILE);
  if (!existsSync(path)) return null;
  const sqlite = new Database(path, { timeout: 0 });
  try {
    sqlite.exec("BEGIN IMMEDIATE");
    sqlite.exec("ROLLBACK");
    return null;
  } catch (e) {
    if (!isBusy(e)) throw e;
    return { holder: holderOf(sqlite) };
  } finally {
    sqlite.close();
  }
}
