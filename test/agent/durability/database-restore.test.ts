import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { afterAll, describe, expect, it } from "vitest";
import { backupDatabase } from "../../../src/db/backup.js";
import {
  DB_FILE,
  isMigrated,
  MIGRATIONS_DIR,
  openDatabase,
  shippedMigrationCount,
} from "../../../src/db/open.js";
import { RestoreRefused, restoreDatabase } from "../../../src/db/restore.js";
import { tempDir } from "../../support/temp-dirs.js";

const dir = tempDir("pps-edge-restore-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A station database with only the first `n` migrations: what an older version wrote. */
function olderDatabase(path: string, n: number): void {
  const migrations = join(dir, `migrations-${n}`);
  cpSync(MIGRATIONS_DIR, migrations, { recursive: true });
  const journalFile = join(migrations, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: unknown[] };
  writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, n) }));
  const sqlite = new Database(path);
  sqlite.pragma("journal_mode = WAL");
  migrate(drizzle(sqlite), { migrationsFolder: migrations });
  sqlite.close();
}

describe("restoreDatabase", () => {
  it("restores a backup of an older schema, which the agent's open then migrates", async () => {
    const data = join(dir, "older");
    openDatabase(join(data, DB_FILE)).close();
    const old = join(dir, "older-source.db");
    olderDatabase(old, 3);
    const backup = join(dir, "older.db");
    await backupDatabase(old, backup);

    const r = await restoreDatabase(data, backup, new Date(Date.UTC(2026, 10, 24, 10)));
    expect(r.migrations).toEqual({ restored: 3, shipped: shippedMigrationCount() });
    expect(r.keptAside).toBe(join(data, "backups", "before-restore-20261124T100000.000Z.sqlite"));
    const opened = openDatabase(join(data, DB_FILE));
    try {
      expect(isMigrated(opened.sqlite, shippedMigrationCount())).toBe(true);
    } finally {
      opened.close();
    }
  });

  it("is refused while another process has the database open, and changes nothing", async () => {
    const data = join(dir, "busy");
    const path = join(data, DB_FILE);
    openDatabase(path).close();
    const backup = join(dir, "busy.db");
    await backupDatabase(path, backup);
    const other = openDatabase(path); // as a `pps-edge user` command beside the restore
    try {
      other.sqlite.prepare("INSERT INTO settings (key, value) VALUES ('busy', 'yes')").run();
      const before = readFileSync(path);
      await expect(restoreDatabase(data, backup, new Date())).rejects.toThrow(
        new RestoreRefused(
          `the database ${path} is open in another process (a pps-edge command?); close it and try again`,
        ),
      );
      expect(readFileSync(path)).toEqual(before);
      expect(readdirSync(join(data, "backups"))).toEqual([]);
      expect(existsSync(`${path}.restoring`)).toBe(false);
      expect(other.sqlite.prepare("SELECT value FROM settings WHERE key = 'busy'").get()).toEqual({
        value: "yes",
      });
    } finally {
      other.close();
    }
  });
});
