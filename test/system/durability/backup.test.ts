import { type ChildProcess, spawn } from "node:child_process";
import {
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { backupDatabase, backupIntoDataFolder, pruneBackups } from "../../../src/db/backup.js";
import { checkDatabaseFile, lastBackup } from "../../../src/db/integrity.js";
import { DB_FILE, openDatabase } from "../../../src/db/open.js";
import { tempDir } from "../../support/agent.js";
import { deadline, until } from "../../support/deadline.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const dir = tempDir("pps-edge-backup-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Another process writing the database as fast as it can, one transaction per row, in WAL mode like the
 * agent. It prints each row's id once committed: what it acknowledged.
 */
const WRITER = `
const Database = require("better-sqlite3");
const db = new Database(process.argv[1]);
db.pragma("journal_mode = WAL");
db.pragma("busy_timeout = 5000");
db.pragma("synchronous = OFF"); // speed, not durability, is what this load is for
db.exec("CREATE TABLE IF NOT EXISTS load (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
const insert = db.prepare("INSERT INTO load (body) VALUES (?)");
const body = "x".repeat(500);
let out = "";
setInterval(() => {
  for (let i = 0; i < 200; i++) out += insert.run(body).lastInsertRowid + "\\n";
  process.stdout.write(out);
  out = "";
}, 1);
`;

function startWriter(path: string): { proc: ChildProcess; acked: () => number } {
  const proc = spawn(process.execPath, ["-e", WRITER, path], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let last = 0;
  let buf = "";
  proc.stdout?.on("data", (d) => {
    buf += String(d);
    const lines = buf.split("\n");
    buf = lines.pop() ?? "";
    const n = Number(lines.at(-1));
    if (n > last) last = n;
  });
  return { proc, acked: () => last };
}

describe("backup under a write load", () => {
  it(
    "is one consistent snapshot holding every change acknowledged before it began",
    async () => {
      const data = join(dir, "load");
      mkdirSync(data);
      const source = join(data, DB_FILE);
      const writer = startWriter(source);
      try {
        await until("a database of some size", () => writer.acked() > 10_000, 60_000);
        for (let round = 0; round < 2; round++) {
          const before = writer.acked();
          const target = join(data, `round-${round}.db`);
          const r = await backupDatabase(source, target);
          const copy = new Database(target, { readonly: true });
          const { n, max } = copy.prepare("SELECT count(*) AS n, max(id) AS max FROM load").get() as {
            n: number;
            max: number;
          };
          copy.close();
          // every acknowledged row, and no hole: the rows 1..max, as one transaction boundary left them
          expect(max).toBeGreaterThanOrEqual(before);
          expect(n).toBe(max);
          expect(checkDatabaseFile(target)).toEqual([]);
          expect(r).toMatchObject({ path: target, name: `round-${round}.db` });
          expect(r.sha256).toMatch(/^[0-9a-f]{64}$/);
          // the copy stands alone: no -wal beside it
          expect(existsSync(`${target}-wal`)).toBe(false);
          expect(existsSync(`${target}.partial`)).toBe(false);
        }
        // the writer was never stopped: it went on committing past the last snapshot
        const after = writer.acked();
        await until("more writes after the backups", () => writer.acked() > after, 15_000);
      } finally {
        writer.proc.kill();
      }
    },
    deadline(60_000),
  );
});

describe("backups into the data folder", () => {
  it("are named by UTC time, found by lastBackup, and pruned to the newest N", async () => {
    const data = join(dir, "prune");
    openDatabase(join(data, DB_FILE)).close();
    const backups = join(data, "backups");
    mkdirSync(backups);
    writeFileSync(join(backups, "by-hand.db"), "kept: not a stamped backup");
    writeFileSync(join(backups, "before-restore-20261101T000000.000Z.sqlite"), "kept too");
    // an hour ago: the hand-made file is not the newest backup
    utimesSync(
      join(backups, "by-hand.db"),
      new Date(Date.now() - 3_600_000),
      new Date(Date.now() - 3_600_000),
    );
    const written: string[] = [];
    for (let i = 0; i < 7; i++) {
      const r = await backupIntoDataFolder(data, { keep: 3, now: new Date(Date.UTC(2026, 10, 24, 9, 0, i)) });
      expect(r.name).toBe(`pps-edge-20261124T0900${String(i).padStart(2, "0")}.000Z.db`);
      expect(lastBackup(data)).toBe(r.path);
      written.push(r.name);
    }
    expect(readdirSync(backups).sort()).toEqual(
      ["before-restore-20261101T000000.000Z.sqlite", "by-hand.db", ...written.slice(-3)].sort(),
    );
  });

  it("keeps the backup just written even when the clock went back", async () => {
    const data = join(dir, "clock");
    openDatabase(join(data, DB_FILE)).close();
    await backupIntoDataFolder(data, { keep: 1, now: new Date(Date.UTC(2026, 10, 24)) });
    const r = await backupIntoDataFolder(data, { keep: 1, now: new Date(Date.UTC(2020, 0, 1)) });
    expect(readdirSync(join(data, "backups"))).toEqual([r.name]);
    // the same millisecond twice: the next free name, never an overwrite
    const again = await backupIntoDataFolder(data, { keep: 5, now: new Date(Date.UTC(2020, 0, 1)) });
    expect(again.name).toBe("pps-edge-20200101T000000.001Z.db");
    expect(pruneBackups(join(data, "backups"), 5)).toEqual([]);
  });
});

describe.skipIf(process.getuid?.() !== 0)("backups taken as root", () => {
  it("belong to the data folder's owner, so the agent can prune and restore them", async () => {
    const data = join(dir, "owned");
    openDatabase(join(data, DB_FILE)).close();
    chownSync(data, 4321, 4321); // the service's user
    const r = await backupIntoDataFolder(data, { keep: 5, now: new Date() });
    expect(statSync(join(data, "backups"))).toMatchObject({ uid: 4321, gid: 4321 });
    expect(statSync(r.path)).toMatchObject({ uid: 4321, gid: 4321 });
  });
});

describe("backup refusals", () => {
  it("names the problem and leaves nothing behind", async () => {
    const data = join(dir, "refusals");
    const source = join(data, DB_FILE);
    await expect(backupIntoDataFolder(data, { keep: 5, now: new Date() })).rejects.toThrow(
      `no database at ${source}`,
    );
    openDatabase(source).close();
    await expect(backupDatabase(source, join(dir, "nowhere", "b.db"))).rejects.toThrow(
      `the folder ${join(dir, "nowhere")} does not exist`,
    );
    await expect(backupDatabase(source, source)).rejects.toThrow("exists: name a new file");
    const text = join(data, "notes.txt");
    writeFileSync(text, "not a database, but long enough to look like one ".repeat(100));
    await expect(backupDatabase(text, join(data, "b.db"))).rejects.toThrow(
      `${text} is not a SQLite database`,
    );
    expect(existsSync(join(data, "b.db"))).toBe(false);
    expect(existsSync(join(data, "b.db.partial"))).toBe(false);
  });
});
