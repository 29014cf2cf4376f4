import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isMigrated, openDatabase, shippedMigrationCount } from "../../../src/db/open.js";
import { tempDir } from "../../support/agent.js";

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
});
