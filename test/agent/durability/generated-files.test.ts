/**
 * The files the agent writes that matter, after what a power cut or a crash leaves of them
 * (docs/operations.md#what-survives-a-power-cut): generated credentials written by a first start that
 * died before committing their hashes are taken up, not replaced; an empty credentials file is named in
 * the log and the agent runs on; an empty screen keys file is made again, said in the log, and the
 * screen works with the new keys; an interrupted backup's leftovers go at the next start and backup;
 * `db.synchronous: NORMAL` needs `db.powerSafe: false` and is then reported on every start and /readyz.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent } from "../../../src/app/agent.js";
import { parseConfig } from "../../../src/config/config.load.js";
import { backupIntoDataFolder } from "../../../src/db/backup.js";
import { CREDENTIALS_FILE } from "../../../src/services/auth/credentials.js";
import { SCREEN_KEYS_FILE } from "../../../src/services/auth/screen-sessions.js";
import { startTestAgent, type TestAgent, TOKEN_PATH, tempDir, testConfig } from "../../support/agent.js";
import { LogLines } from "../../support/log-lines.js";

type Running = ReturnType<typeof createAgent>;
const running: Running[] = [];
const agents: TestAgent[] = [];
afterEach(async () => {
  for (const a of running.splice(0)) await a.stop();
  for (const t of agents.splice(0)) await t.close();
});

/** An agent with nothing configured but its folder: it generates the credentials it needs. */
async function firstStart(dir: string, lines = new LogLines()): Promise<Running> {
  const config = parseConfig({ dataDir: dir, log: { level: "info" }, mqtt: { url: "off" } });
  const agent = createAgent(config, { log: pino({ level: "info" }, lines) });
  await agent.start(false);
  running.push(agent);
  return agent;
}

async function login(agent: Running, clientId: string, secret: string, user: string, password: string) {
  const res = await agent.app.request(TOKEN_PATH, {
    method: "POST",
    headers: {
      Authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}`,
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ grant_type: "password", username: user, password }).toString(),
  });
  return res.status;
}

describe("generated credentials", () => {
  it("a first start that died after writing the file and before committing is taken up by the next", async () => {
    const dir = tempDir();
    // what the file holds when the process died right after its durable write
    const crashed = {
      clientId: "pps-edge",
      clientSecret: "left-by-a-crashed-start-0001",
      adminUser: "admin",
      adminPassword: "left-by-a-crashed-start-0002",
      metricsToken: "left-by-a-crashed-start-0003",
    };
    writeFileSync(join(dir, CREDENTIALS_FILE), JSON.stringify(crashed));
    const agent = await firstStart(dir);
    expect(await login(agent, "pps-edge", crashed.clientSecret, "admin", crashed.adminPassword)).toBe(200);
    const scrape = await agent.app.request("/metrics", {
      headers: { Authorization: `Bearer ${crashed.metricsToken}` },
    });
    expect(scrape.status).toBe(200);
    const file = JSON.parse(readFileSync(join(dir, CREDENTIALS_FILE), "utf8")) as Record<string, string>;
    expect(file.clientSecret).toBe(crashed.clientSecret);
    expect(file.adminPassword).toBe(crashed.adminPassword);
  });

  it("an empty file (a cut before it reached the disk) is named in the log and the agent runs on", async () => {
    const dir = tempDir();
    const first = await firstStart(dir);
    const made = JSON.parse(readFileSync(join(dir, CREDENTIALS_FILE), "utf8")) as Record<string, string>;
    await first.stop();
    running.splice(0);
    writeFileSync(join(dir, CREDENTIALS_FILE), "");
    const lines = new LogLines();
    const again = await firstStart(dir, lines);
    const said = lines.lines.map((l) => JSON.parse(l) as { level: number; msg: string; file?: string });
    const complaint = said.find((l) => l.file === join(dir, CREDENTIALS_FILE) && l.level >= 50);
    expect(complaint?.msg).toMatch(/damaged.*cannot be read back.*set new ones/);
    // the credentials themselves were never lost: their hashes are in the database
    expect(
      await login(again, made.clientId ?? "", made.clientSecret ?? "", "admin", made.adminPassword ?? ""),
    ).toBe(200);
  });
});

describe("operator screen keys", () => {
  it("an empty keys file is made again, said in the log, and the new key opens the screen", async () => {
    const dir = tempDir();
    const first = await firstStart(dir);
    const oldKeys = JSON.parse(readFileSync(join(dir, SCREEN_KEYS_FILE), "utf8")) as Record<string, string>;
    await first.stop();
    running.splice(0);
    writeFileSync(join(dir, SCREEN_KEYS_FILE), "");
    const lines = new LogLines();
    const agent = await firstStart(dir, lines);
    const said = lines.lines.map((l) => JSON.parse(l) as { level: number; msg: string; file?: string });
    expect(said.find((l) => l.file === join(dir, SCREEN_KEYS_FILE) && l.level >= 50)?.msg).toMatch(
      /empty or damaged: new keys are made/,
    );
    const keys = JSON.parse(readFileSync(join(dir, SCREEN_KEYS_FILE), "utf8")) as Record<string, string>;
    expect(Object.keys(keys).sort()).toEqual(Object.keys(oldKeys).sort());
    const seat = Object.keys(keys)[0] as string;
    expect(keys[seat]).not.toBe(oldKeys[seat]);
    const opened = await agent.app.request(`/screen/${seat}?key=${encodeURIComponent(keys[seat] ?? "")}`);
    expect([opened.status, opened.headers.get("location")]).toEqual([303, `/screen/${seat}`]);
    const ready = (await (await agent.app.request("/readyz")).json()) as { ready: boolean };
    expect(ready.ready).toBe(true);
  });
});

describe("an interrupted backup", () => {
  it("leaves nothing behind after the next start and the next backup", async () => {
    const dir = tempDir();
    const backups = join(dir, "backups");
    mkdirSync(backups);
    const leftovers = [
      "pps-edge-20261127T010000.000Z.db.partial",
      "pps-edge-20261127T010000.000Z.db.partial-wal",
    ];
    for (const n of leftovers) writeFileSync(join(backups, n), "half a copy");
    writeFileSync(join(backups, "kept-by-hand.db"), "x");
    const t = await startTestAgent({ dataDir: dir });
    agents.push(t);
    expect(readdirSync(backups)).toEqual(["kept-by-hand.db"]);
    for (const n of leftovers) writeFileSync(join(backups, n), "half a copy");
    const done = await backupIntoDataFolder(dir, { keep: 5, now: new Date("2026-11-27T02:00:00Z") });
    expect(readdirSync(backups).sort()).toEqual(["kept-by-hand.db", done.name].sort());
  });
});

describe("db.synchronous NORMAL", () => {
  it("is refused without the explicit consent, naming the key", () => {
    expect(() => testConfig(tempDir(), { db: { synchronous: "NORMAL" } })).toThrow(/db\.synchronous/);
  });

  it("with db.powerSafe false it starts, warns, and /readyz says what was given up", async () => {
    const lines = new LogLines();
    const t = await startTestAgent(
      { db: { synchronous: "NORMAL", powerSafe: false }, log: { level: "info" } },
      { logTo: lines },
    );
    agents.push(t);
    expect(lines.text()).toMatch(/an acknowledged change can be lost on power loss/);
    const body = (await (await t.request("/readyz")).json()) as {
      ready: boolean;
      checks: Record<string, { ok: boolean; detail?: string }>;
    };
    expect(body.ready).toBe(true);
    expect(body.checks.durability?.detail).toMatch(/NORMAL.*can be lost on power loss/);
  });

  it("FULL adds no durability check", async () => {
    const t = await startTestAgent();
    agents.push(t);
    const body = (await (await t.request("/readyz")).json()) as { checks: Record<string, unknown> };
    expect(Object.keys(body.checks)).not.toContain("durability");
    expect(existsSync(join(t.dir, "backups"))).toBe(false);
  });
});
