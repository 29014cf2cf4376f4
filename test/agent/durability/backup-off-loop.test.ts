/**
 * A backup inside the agent runs in a worker thread (src/db/backup-off-loop.ts, docs/mqtt.md): the event
 * loop keeps turning while the database is copied, checked and hashed, the copy is whole, and a failure
 * comes back with the same message as `pps-edge backup` gives. How long the loop may stall is measured by
 * `npm run bench backup`, not here.
 */
import { createHash } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backupOffLoop } from "../../../src/db/backup-off-loop.js";
import { checkDatabaseFile } from "../../../src/db/integrity.js";
import { tempDir } from "../../support/agent.js";
import { turnCounter } from "../../support/turns.js";

let dir: string;
let source: string;
beforeAll(() => {
  dir = tempDir();
  source = join(dir, "station.db");
  const db = new Database(source);
  db.exec("CREATE TABLE t (b BLOB)");
  const insert = db.prepare("INSERT INTO t VALUES (randomblob(4000))");
  db.transaction(() => {
    for (let i = 0; i < 5000; i++) insert.run();
  })();
  db.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a backup off the event loop", () => {
  it("copies in a worker thread while the loop keeps turning", async () => {
    const turns = turnCounter();
    const target = join(dir, "copy.db");
    const r = await backupOffLoop(source, target);
    turns.stop();
    // the copy of 20 MB, its integrity check and its hash held no turn of the loop
    expect(turns.now()).toBeGreaterThan(20);
    expect(r.size).toBeGreaterThan(20_000_000);
    expect(r.sha256).toBe(createHash("sha256").update(readFileSync(target)).digest("hex"));
    expect(checkDatabaseFile(target)).toEqual([]);
  });

  it("answers a failure with its message", async () => {
    await expect(backupOffLoop(join(dir, "none.db"), join(dir, "x.db"))).rejects.toThrow(/^no database at /);
    await expect(backupOffLoop(source, join(dir, "copy.db"))).rejects.toThrow(/exists: name a new file/);
  });
});
