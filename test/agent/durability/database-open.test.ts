import { chmodSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { backupDatabase } from "../../../src/db/backup.js";
import { isMigrated, openDatabase, shippedMigrationCount } from "../../../src/db/open.js";
import { tempDir } from "../../support/temp-dirs.js";

describe("openDatabase", () => {
  it("sets WAL, synchronous=FULL, foreign keys and a busy timeout on a real file", () => {
    const h = openDatabase(join(tempDir(), "station.db"));
    expect(h.sqlite.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(h.sqlite.pragma("synchronous", { simple: true })).toBe(2); // FULL
    expect(h.sqlite.pragma("foreign_keys", { simple: true })).toBe(1);
    expect(h.sqlite.pragma("busy_timeout", { simple: true })).toBe(5000);
    expect(isMigrated(h.sqlite, shippedMigrationCount())).toBe(true);
    h.close();
  });

  it("applies migrations once; reopening keeps the data", () => {
    const file = join(tempDir(), "station.db");
    const a = openDatabase(file);
    a.sqlite.prepare("INSERT INTO settings (key, value) VALUES ('k', 'v')").run();
    a.close();
    const b = openDatabase(file, { synchronous: "NORMAL" });
    expect(b.sqlite.prepare("SELECT value FROM settings WHERE key = 'k'").get()).toEqual({ value: "v" });
    expect(b.sqlite.pragma("synchronous", { simple: true })).toBe(1);
    b.close();
  });

  it("is not ready before migrations", () => {
    const h = openDatabase(":memory:");
    h.sqlite.exec("DELETE FROM __drizzle_migrations");
    expect(isMigrated(h.sqlite, shippedMigrationCount())).toBe(false);
    h.close();
  });

  it("creates the database and its backups owner-only whatever the umask (they hold password hashes)", async () => {
    const dir = tempDir();
    const old = process.umask(0o002);
    try {
      const file = join(dir, "new.db");
      const h = openDatabase(file);
      h.sqlite.prepare("CREATE TABLE t (x)").run();
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(`${file}-wal`).mode & 0o777).toBe(0o600);
      const copy = await backupDatabase(file, join(dir, "copy.db"));
      expect(statSync(copy.path).mode & 0o777).toBe(0o600);
      h.close();
      // an existing file keeps the mode its owner gave it
      const mine = join(dir, "mine.db");
      writeFileSync(mine, "");
      chmodSync(mine, 0o640);
      openDatabase(mine).close();
      expect(statSync(mine).mode & 0o777).toBe(0o640);
    } finally {
      process.umask(old);
    }
  });
});
