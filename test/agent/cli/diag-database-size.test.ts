/**
 * `pps-edge diag` gives the database's size as the file and its -wal together: in WAL mode what the
 * agent wrote since the last checkpoint is only in the -wal, so the file alone can read 4096 bytes on
 * a station holding megabytes.
 */
import { rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { databaseReport } from "../../../src/app/cli/diag.command.js";
import { parseConfig } from "../../../src/config/config.load.js";
import { DB_FILE, openDatabase } from "../../../src/db/open.js";
import { tempDir } from "../../support/agent.js";

let dir: string;
beforeEach(() => {
  dir = tempDir();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("pps-edge diag: the database's size", () => {
  it("counts the -wal beside the file, and names both", async () => {
    const path = join(dir, DB_FILE);
    const handle = openDatabase(path);
    try {
      const sqlite = handle.sqlite;
      // the agent's writes, held in the -wal while it runs (no checkpoint moves them into the file)
      sqlite.pragma("wal_autocheckpoint = 0");
      sqlite.exec("CREATE TABLE filler (x BLOB)");
      const insert = sqlite.prepare("INSERT INTO filler VALUES (randomblob(4000))");
      for (let i = 0; i < 100; i++) insert.run();
      expect(sqlite.pragma("journal_mode", { simple: true })).toBe("wal");
      const { text } = await databaseReport(parseConfig({ dataDir: dir }));
      const file = statSync(path).size;
      const wal = statSync(`${path}-wal`).size;
      expect(wal).toBeGreaterThan(400_000);
      const line = text.split("\n")[0];
      expect(line).toBe(`database ${path}: ${file + wal} bytes (file ${file}, -wal ${wal})`);
    } finally {
      handle.close();
    }
  });
});
