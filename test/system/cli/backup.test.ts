/** `pps-edge backup` and `pps-edge restore` against the real agent in its own process. */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { checkDatabaseFile, lastBackup } from "../../../src/db/integrity.js";
import { DB_FILE } from "../../../src/db/open.js";
import { tempDir } from "../../support/agent.js";
import { type ChildAgent, startChildAgent } from "../../support/child-agent.js";
import { runCli } from "../../support/cli.js";
import { deadline } from "../../support/deadline.js";
import { itemBody } from "../../support/fixtures.js";
import { ITEM, pickBody, pickLine, SR } from "../../support/station.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const dir = tempDir("pps-edge-cli-backup-");
const data = join(dir, "data");
const env = { PPS_EDGE_DATA_DIR: data };
let agent: ChildAgent | undefined;
afterAll(async () => {
  await agent?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const sha256 = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
const WROTE = /^wrote (\S+): (\d+) bytes, sha256 ([0-9a-f]{64})$/m;

async function created(a: ChildAgent, id: string): Promise<boolean> {
  const res = await a.call("POST", SR, pickBody(id, [pickLine(`${id}-1`, "B", 1)]));
  await res.text();
  return res.status < 300;
}

/** The largest notification seq a database file gave. */
function maxSeq(path: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'outbox'").get() as { seq: number }).seq;
  } finally {
    db.close();
  }
}

/** The service requests and the undelivered notifications of a database file. */
function contents(path: string): { requests: string[]; pending: string[] } {
  const db = new Database(path, { readonly: true });
  try {
    const requests = db.prepare("SELECT external_id AS id FROM service_requests ORDER BY id").all() as Array<{
      id: string;
    }>;
    const pending = db
      .prepare("SELECT envelope FROM outbox WHERE delivered_at IS NULL ORDER BY seq")
      .all() as Array<{
      envelope: string;
    }>;
    return { requests: requests.map((r) => r.id), pending: pending.map((r) => r.envelope) };
  } finally {
    db.close();
  }
}

describe("pps-edge backup and restore beside the real agent", () => {
  let backup = "";
  let inBackup: ReturnType<typeof contents>;

  it(
    "backs up while the agent runs and writes: every change acknowledged before it is in it",
    async () => {
      agent = await startChildAgent(data);
      const a = agent;
      expect((await a.call("POST", ITEM, itemBody("B"))).status).toBeLessThan(300);
      const acked: string[] = [];
      let stop = false;
      const creator = (async () => {
        for (let i = 0; !stop; i++) if (await created(a, `B-${i}`)) acked.push(`B-${i}`);
      })();
      while (acked.length < 20) await new Promise((r) => setTimeout(r, 20));
      const before = [...acked];
      // its own process, as on a station: the creates go on meanwhile
      const run = await promisify(execFile)(
        process.execPath,
        ["--import", "tsx", "src/app/main.ts", "backup"],
        {
          cwd: ROOT,
          env: { ...process.env, ...env },
        },
      );
      const during = acked.length;
      while (acked.length < during + 5) await new Promise((r) => setTimeout(r, 20));
      stop = true;
      await creator;

      const [, path = "", size, sum] = WROTE.exec(run.stdout) ?? [];
      backup = path;
      expect(path).toMatch(/\/backups\/pps-edge-\d{8}T\d{6}\.\d{3}Z\.db$/);
      expect(Number(size)).toBe(readFileSync(path).length);
      expect(sum).toBe(sha256(path));
      expect(lastBackup(data)).toBe(path);
      expect(checkDatabaseFile(path)).toEqual([]);
      inBackup = contents(path);
      expect(inBackup.requests).toEqual(expect.arrayContaining(before));
      expect(inBackup.pending.length).toBeGreaterThan(0);
      // the agent went on writing: later creates are not in it
      expect(acked.filter((id) => !inBackup.requests.includes(id)).length).toBeGreaterThan(0);
    },
    deadline(120_000),
  );

  it("refuses to restore while the agent runs, naming it, and changes nothing", async () => {
    const a = agent as ChildAgent;
    const res = await runCli(["restore", backup], env);
    expect(res.code).toBe(1);
    expect(res.err).toContain(`an agent runs on ${data} (pid ${a.proc.pid}, running since`);
    expect(res.err).toContain("stop it first");
    expect(readdirSync(join(data, "backups")).filter((n) => n.startsWith("before-restore"))).toEqual([]);
    expect((await a.call("GET", "/readyz")).status).toBe(200);
  });

  it(
    "restores when the agent is stopped; the agent starts on it with its pending notifications",
    async () => {
      await agent?.stop();
      agent = undefined;
      const replaced = contents(join(data, DB_FILE));
      const replacedLast = maxSeq(join(data, DB_FILE));
      expect(replacedLast).toBeGreaterThan(maxSeq(backup));
      const res = await runCli(["restore", backup], env);
      expect(res.err).toBe("");
      expect(res.code).toBe(0);
      expect(res.out).toContain(`restored ${backup} into ${join(data, DB_FILE)}, the current schema`);
      // the notifications given after the backup keep their ids: the next ones are numbered after them
      expect(res.out).toContain(`notifications continue after seq ${replacedLast}`);
      const aside = /kept as (\S+)$/m.exec(res.out)?.[1] ?? "";
      expect(aside).toMatch(/\/backups\/before-restore-\d{8}T\d{6}\.\d{3}Z\.sqlite$/);
      // the replaced database, whole and in one file (its WAL folded in)
      expect(contents(aside)).toEqual(replaced);
      expect(checkDatabaseFile(aside)).toEqual([]);
      expect(existsSync(`${aside}-wal`)).toBe(false);
      expect(existsSync(join(data, `${DB_FILE}-wal`))).toBe(false);
      // the newest backup is still the backup, not the database put aside
      expect(lastBackup(data)).toBe(backup);
      expect(contents(join(data, DB_FILE))).toEqual(inBackup);

      agent = await startChildAgent(data);
      const page = (await (await agent.call("GET", "/station/notifications?after=0&limit=1000")).json()) as {
        notifications: Array<{ notification: unknown }>;
      };
      expect(page.notifications.map((n) => JSON.stringify(n.notification))).toEqual(
        inBackup.pending.map((e) => JSON.stringify(JSON.parse(e))),
      );
      expect(await created(agent, "AFTER-RESTORE")).toBe(true);
      const next = (await (
        await agent.call("GET", `/station/notifications?after=${replacedLast}`)
      ).json()) as {
        notifications: Array<{ seq: number }>;
      };
      expect(next.notifications[0]?.seq).toBe(replacedLast + 1);
      await agent.stop();
      agent = undefined;
    },
    deadline(120_000),
  );

  it("refuses a file that is no station database, is damaged or is newer, and changes nothing", async () => {
    const db = join(data, DB_FILE);
    const was = sha256(db);
    const aside = () =>
      readdirSync(join(data, "backups")).filter((n) => n.startsWith("before-restore")).length;
    const asideBefore = aside();
    const text = join(dir, "notes.txt");
    copyFileSync(join(ROOT, "README.md"), text);
    const damaged = join(dir, "damaged.db");
    copyFileSync(backup, damaged);
    const bytes = readFileSync(damaged);
    bytes.fill(0xa5, 4096 * 3, bytes.length - 4096); // every page but the first and the last
    writeFileSync(damaged, bytes);
    const newer = join(dir, "newer.db");
    copyFileSync(backup, newer);
    const n = new Database(newer);
    n.prepare("INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('future', 1)").run();
    n.close();
    const cases: Array<[string, string]> = [
      [text, `${text} is not a SQLite database`],
      [join(data, "agent.lock"), "is a SQLite database but not a pps-edge station database"],
      [damaged, "fails PRAGMA integrity_check"],
      [newer, "was written by a newer pps-edge"],
      [join(dir, "missing.db"), `no file ${join(dir, "missing.db")}`],
    ];
    for (const [file, message] of cases) {
      const res = await runCli(["restore", file], env);
      expect([file, res.code]).toEqual([file, 1]);
      expect(res.err).toMatch(/^pps-edge: /);
      expect(res.err).toContain(message);
      expect(sha256(db)).toBe(was);
      expect(aside()).toBe(asideBefore);
      expect(existsSync(`${db}.restoring`)).toBe(false);
    }
  });
});

describe("pps-edge restore over a damaged database", () => {
  it("keeps the damaged one aside, WAL and all, and leaves a whole database in place", async () => {
    const station = join(dir, "damaged-station");
    const stationEnv = { PPS_EDGE_DATA_DIR: station };
    expect((await runCli(["user", "list", "--init"], stationEnv)).code).toBe(0);
    const good = join(dir, "good.db");
    expect((await runCli(["backup", good], stationEnv)).code).toBe(0);
    const db = join(station, DB_FILE);
    const bytes = readFileSync(db);
    bytes.fill(0x5a); // not even its header left: SQLite cannot open it to fold its WAL in
    writeFileSync(db, bytes);
    writeFileSync(`${db}-wal`, "a WAL SQLite cannot use");
    expect((await runCli(["check"], stationEnv)).code).toBe(1);

    const res = await runCli(["restore", good], stationEnv);
    expect(res.err).toBe(
      "pps-edge: warning: the replaced database could not be read, so new notifications may reuse ids central saw before the restore",
    );
    expect(res.code).toBe(0);
    const aside = /kept as (\S+)$/m.exec(res.out)?.[1] ?? "";
    expect(readFileSync(aside)).toEqual(bytes);
    expect(readFileSync(`${aside}-wal`, "utf8")).toBe("a WAL SQLite cannot use");
    expect(existsSync(`${db}-wal`)).toBe(false);
    expect(await runCli(["check"], stationEnv)).toMatchObject({ code: 0, out: `ok: ${db}` });
    // restored as root into a folder of the service's user: the database is the user's
    if (process.getuid?.() === 0) expect(statSync(db).uid).toBe(statSync(station).uid);
  });
});

describe("pps-edge backup and restore: bad input", () => {
  it("answers each with a clear error and its exit code", async () => {
    const empty = { PPS_EDGE_DATA_DIR: join(dir, "empty") };
    const cases: Array<[string[], Record<string, string>, number, string]> = [
      [["restore"], env, 2, "missing required argument 'file'"],
      [["backup"], empty, 1, `no database at ${join(dir, "empty", DB_FILE)}`],
      [["backup", join(dir, "no-such-folder", "b.db")], env, 1, "the folder"],
      [["backup", "/proc/b.db"], env, 1, "cannot copy"],
      [["backup", join(data, DB_FILE)], env, 1, "exists: name a new file"],
      [["backup", "--keep", "2", join(dir, "b.db")], env, 2, "give FILE or --keep, not both"],
      [["backup", "--keep", "0"], env, 2, "at least 1"],
      [["backup", "a.db", "b.db"], env, 2, "too many arguments"],
    ];
    for (const [args, e, code, message] of cases) {
      const res = await runCli(args, e);
      expect([args, res.code]).toEqual([args, code]);
      expect(res.err).toContain(message);
    }
    expect(existsSync(join(dir, "b.db"))).toBe(false);
  });

  it("writes a named backup where asked, without pruning anything", async () => {
    const res = await runCli(["backup", join(dir, "named.db")], env);
    expect(res.code).toBe(0);
    expect(res.out).toMatch(WROTE);
    expect(WROTE.exec(res.out)?.[1]).toBe(join(dir, "named.db"));
    expect(checkDatabaseFile(join(dir, "named.db"))).toEqual([]);
  });
});
