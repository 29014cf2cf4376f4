/**
 * A station database with damaged pages is refused at start, on one line naming the file and the
 * backup to restore, instead of starting, reporting ready and answering 500s. The damage is real: a
 * copy of a migrated database with items in it, one page of the items table overwritten with random
 * bytes (the file header kept), checked to be what `PRAGMA quick_check` finds.
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  rmSync,
  utimesSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseProblems } from "../../../src/db/integrity.js";
import { DB_FILE, openDatabase } from "../../../src/db/open.js";
import { failureLine, isStartError } from "../../../src/start-error.js";
import { startFailure, startTestAgent, tempDir } from "../../support/agent.js";
import { runCli } from "../../support/cli.js";
import { itemBody } from "../../support/fixtures.js";
import { ITEM } from "../../support/station.js";

let whole: string;
const scratch: string[] = [];

/** A migrated database with 300 items in it, checkpointed into its one file. */
beforeAll(async () => {
  const t = await startTestAgent();
  for (let i = 0; i < 300; i++) expect((await t.call("POST", ITEM, itemBody(`SKU-${i}`))).status).toBe(200);
  t.agent.db.sqlite.pragma("wal_checkpoint(TRUNCATE)");
  const keep = tempDir();
  scratch.push(keep);
  whole = join(keep, DB_FILE);
  copyFileSync(join(t.dir, DB_FILE), whole);
  await t.close();
});
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

/** A data folder holding a copy of the database whose items table has a page of random bytes. */
function damagedDataDir(): { dir: string; file: string } {
  const dir = tempDir();
  scratch.push(dir);
  const file = join(dir, DB_FILE);
  copyFileSync(whole, file);
  const probe = openDatabase(whole);
  const pageSize = probe.sqlite.pragma("page_size", { simple: true }) as number;
  const { rootpage } = probe.sqlite
    .prepare("SELECT rootpage FROM sqlite_master WHERE name = 'items'")
    .get() as {
    rootpage: number;
  };
  probe.close();
  expect(rootpage).toBeGreaterThan(2);
  const fd = openSync(file, "r+");
  writeSync(fd, randomBytes(pageSize), 0, pageSize, (rootpage - 1) * pageSize);
  closeSync(fd);
  return { dir, file };
}

describe("a damaged database", () => {
  it("is what quick_check finds", () => {
    const { file } = damagedDataDir();
    const h = new Database(file);
    expect(databaseProblems(h, "quick").length).toBeGreaterThan(0);
    h.close();
    const w = openDatabase(whole);
    expect(databaseProblems(w.sqlite, "quick")).toEqual([]);
    expect(databaseProblems(w.sqlite, "full")).toEqual([]);
    w.close();
  });

  it("is refused at start on one line naming the file, and that no backup was found", async () => {
    const { dir, file } = damagedDataDir();
    const e = await startFailure(dir);
    expect(isStartError(e)).toBe(true);
    const line = failureLine(e, true);
    expect(line).not.toContain("\n");
    expect(line).toMatch(
      /^pps-edge: cannot start: the database \S+ is damaged \(quick_check: .+\) \(dataDir\): /,
    );
    expect(line).toContain(file);
    expect(line).toContain(`no backup found in ${join(dir, "backups")}`);
    // the folder is given up again: nothing holds it, and a second start says the same
    expect(failureLine(await startFailure(dir), true)).toBe(line);
  });

  it("names the newest backup in <dataDir>/backups", async () => {
    const { dir } = damagedDataDir();
    const backups = join(dir, "backups");
    mkdirSync(backups);
    copyFileSync(whole, join(backups, "pps-edge-2026-11-20.db"));
    copyFileSync(whole, join(backups, "pps-edge-2026-11-21.db"));
    utimesSync(join(backups, "pps-edge-2026-11-20.db"), new Date(1000), new Date(1000));
    const line = failureLine(await startFailure(dir), true);
    expect(line).toContain(`restore the last backup, ${join(backups, "pps-edge-2026-11-21.db")}`);
    expect(line).toContain(`pps-edge restore ${join(backups, "pps-edge-2026-11-21.db")}`);
    expect(existsSync(join(backups, "pps-edge-2026-11-21.db"))).toBe(true);
  });

  it("`pps-edge check` lists the problems with exit 1, and says ok on a whole database", async () => {
    const { dir, file } = damagedDataDir();
    for (const args of [["check"], ["check", "--quick"]]) {
      const bad = await runCli(args, { PPS_EDGE_DATA_DIR: dir });
      expect(bad.code, args.join(" ")).toBe(1);
      expect(bad.err).toContain(`pps-edge: the database ${file} is damaged`);
      expect(bad.out).toBe("");
    }
    const good = await runCli(["check"], { PPS_EDGE_DATA_DIR: join(whole, "..") });
    expect(good).toEqual({ code: 0, out: `ok: ${whole}`, err: "" });
  });
});
