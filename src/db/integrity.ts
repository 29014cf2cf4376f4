import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { Sqlite } from "./open.js";

/**
 * Whether the station database is whole (sqlite.org/pragma.html#pragma_quick_check). `quick` runs
 * `PRAGMA quick_check` at every start: it reads every page and checks the b-trees, but not that each
 * index matches its table, so it costs about one read of the file (docs/architecture.md: Durability gives the
 * figures). `full` runs `PRAGMA integrity_check` as well, for `pps-edge check`, and takes longer on a
 * large database. Answers the problems SQLite names, none when the database is whole; a database so
 * damaged that SQLite refuses to check it answers that refusal.
 */
export function databaseProblems(sqlite: Sqlite, how: "quick" | "full" = "quick"): string[] {
  try {
    const rows = sqlite.pragma(how === "quick" ? "quick_check" : "integrity_check") as Array<
      Record<string, string>
    >;
    const found = rows.map((r) => String(Object.values(r)[0]));
    return found.length === 1 && found[0] === "ok" ? [] : found;
  } catch (e) {
    return [e instanceof Error ? e.message : String(e)];
  }
}

/** Where backups of the station database are looked for: `<dataDir>/backups/*.db`. */
export const BACKUPS_DIR = "backups";

/**
 * The newest `*.db` in `<dataDir>/backups` (by modification time) that `accept` takes (any, without
 * it), if any: a newer database is refused with the newest backup this version can open.
 */
export function lastBackup(
  dataDir: string,
  accept: (path: string) => boolean = () => true,
): string | undefined {
  const dir = join(dataDir, BACKUPS_DIR);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".db"));
  } catch {
    return undefined;
  }
  const found: Array<{ path: string; at: number }> = [];
  for (const name of names) {
    const path = join(dir, name);
    try {
      found.push({ path, at: statSync(path).mtimeMs });
    } catch {
      // gone meanwhile: not a backup to restore
    }
  }
  return found.sort((a, b) => b.at - a.at).find((b) => accept(b.path))?.path;
}

/**
 * Checks the database file in `path` read-only (`pps-edge check`): beside a running agent too, whose
 * WAL it reads without writing. Throws when there is no database there.
 */
export function checkDatabaseFile(path: string, how: "quick" | "full" = "full"): string[] {
  const sqlite = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return databaseProblems(sqlite, how);
  } finally {
    sqlite.close();
  }
}
