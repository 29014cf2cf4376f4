/**
 * A database that a newer version migrated is refused at start (issue 10, "Upgrade and rollback"): on
 * one line naming the version that wrote it, this version, and the newest backup this version can
 * open, before anything is written, so pending notifications wait untouched for the way back. The
 * newer version is played by a real station database given one more migration row, as drizzle writes
 * it, and the record a newer agent leaves (db/written-by.ts).
 */
import { copyFileSync, mkdirSync, rmSync, utimesSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DB_FILE, MIGRATIONS_DIR, openDatabase } from "../../../src/db/open.js";
import { shippedMigrations } from "../../../src/db/written-by.js";
import { failureLine, isStartError } from "../../../src/start-error.js";
import { VERSION } from "../../../src/version.js";
import { startFailure, startTestAgent, tempDir } from "../../support/agent.js";
import { runCli } from "../../support/cli.js";

const shipped = shippedMigrations(MIGRATIONS_DIR);
const NEWER_AT = (shipped.at(-1)?.when ?? 0) + 86_400_000;
const NEWER = { version: "9.1.0", migration: "0099_station_zones", when: NEWER_AT };
const scratch: string[] = [];
/** The database as this version left it: migrated, with two notifications waiting for the broker. */
let current: string;

beforeAll(async () => {
  const t = await startTestAgent();
  const insert = t.agent.db.sqlite.prepare(
    "INSERT INTO outbox (notification_id, type, envelope, created_at) VALUES (?, 'bin_complete', ?, ?)",
  );
  for (const id of ["n-1", "n-2"]) insert.run(id, JSON.stringify({ id }), Date.now());
  t.agent.db.sqlite.pragma("wal_checkpoint(TRUNCATE)");
  const keep = tempDir();
  scratch.push(keep);
  current = join(keep, DB_FILE);
  copyFileSync(join(t.dir, DB_FILE), current);
  await t.close();
});
afterAll(() => {
  for (const d of scratch) rmSync(d, { recursive: true, force: true });
});

/** A data folder whose database a newer version migrated (and, with `recorded`, said so). */
function newerDataDir(recorded = true): { dir: string; file: string } {
  const dir = tempDir();
  scratch.push(dir);
  const file = join(dir, DB_FILE);
  copyFileSync(current, file);
  const db = new Database(file);
  db.prepare("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('f00d', ?)").run(NEWER_AT);
  db.exec("CREATE TABLE zones (id integer PRIMARY KEY)");
  const writer = recorded ? NEWER : { ...NEWER, when: NEWER_AT - 1 };
  db.prepare("UPDATE settings SET value = ? WHERE key = 'agent.writtenBy'").run(JSON.stringify(writer));
  db.close();
  return { dir, file };
}

/** What a refusal must leave alone: the pending notifications, the migrations, the settings. */
function contents(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    return ["outbox", "__drizzle_migrations", "settings"].map((t) => db.prepare(`SELECT * FROM ${t}`).all());
  } finally {
    db.close();
  }
}

describe("the database's writer", () => {
  it("is recorded at every open: this version and the newest migration it ships", () => {
    const db = new Database(current, { readonly: true });
    const row = db.prepare("SELECT value FROM settings WHERE key = 'agent.writtenBy'").get() as {
      value: string;
    };
    db.close();
    expect(JSON.parse(row.value)).toEqual({
      version: VERSION,
      migration: shipped.at(-1)?.tag,
      when: shipped.at(-1)?.when,
    });
  });
});

describe("a database written by a newer version", () => {
  it("is refused at start on one line naming both versions and the backup from before the upgrade", async () => {
    const { dir, file } = newerDataDir();
    const backups = join(dir, "backups");
    mkdirSync(backups);
    // the upgrade's backup holds this version's schema; a later one, taken by the newer version, does not
    const before = join(backups, "pps-edge-20261120T101500Z.db");
    copyFileSync(current, before);
    copyFileSync(file, join(backups, "pps-edge-20261121T080000Z.db"));
    utimesSync(before, new Date(1000), new Date(1000));
    const untouched = contents(file);

    const e = await startFailure(dir);
    expect(isStartError(e)).toBe(true);
    expect(failureLine(e, true)).toBe(
      `pps-edge: cannot start: the database ${file} was written by pps-edge 9.1.0 (migration 0099_station_zones), ` +
        `this is ${VERSION} (dataDir): install pps-edge 9.1.0 again, or restore a backup made before the upgrade: ` +
        `pps-edge restore ${before}`,
    );
    expect(contents(file)).toEqual(untouched);
    expect(contents(file)[0]).toHaveLength(2);
    // the folder is given up again: a second start says the same
    expect(failureLine(await startFailure(dir), true)).toBe(failureLine(e, true));
  });

  it("says so when there is no backup this version can open", async () => {
    const { dir } = newerDataDir();
    const line = failureLine(await startFailure(dir), true);
    expect(line).toContain(
      `install pps-edge 9.1.0 again; no backup this version can open was found in ${join(dir, "backups")}`,
    );
  });

  it("without the newer agent's record, is refused as written by a newer pps-edge", async () => {
    const { dir, file } = newerDataDir(false);
    const untouched = contents(file);
    const line = failureLine(await startFailure(dir), true);
    expect(line).toContain(
      `was written by a newer pps-edge (a migration of ${new Date(NEWER_AT).toISOString()}), this is ${VERSION}`,
    );
    expect(contents(file)).toEqual(untouched);
  });

  it("is refused by every command that opens it (`user list`) and by openDatabase itself", async () => {
    const { dir, file } = newerDataDir();
    expect(() => openDatabase(file)).toThrow(/written by pps-edge 9\.1\.0 .*, this is /);
    const r = await runCli(["user", "list"], { PPS_EDGE_DATA_DIR: dir });
    expect(r.code).toBe(1);
    expect(r.err).toContain("written by pps-edge 9.1.0");
  });

  it("`pps-edge check` reports the start's line with exit 1; the backup restored, the agent starts", async () => {
    const { dir, file } = newerDataDir();
    const r = await runCli(["check"], { PPS_EDGE_DATA_DIR: dir });
    expect(r.code).toBe(1);
    expect(r.out).toBe("");
    expect(r.err).toBe(
      `pps-edge: the database ${file} was written by pps-edge 9.1.0 (migration 0099_station_zones), ` +
        `this is ${VERSION} (dataDir): install pps-edge 9.1.0 again; no backup this version can open was found in ${join(dir, "backups")}`,
    );
    // what `pps-edge restore` does with the agent stopped: the backup in the database's place
    rmSync(file);
    copyFileSync(current, file);
    expect(await startFailure(dir)).toBeUndefined();
    expect(contents(file)[0]).toHaveLength(2);
  });
});
