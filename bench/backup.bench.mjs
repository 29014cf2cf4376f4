// Issue 25 (finding 12): the agent's longest event-loop stall while it answers the MQTT request
// `backup` of a large database. The agent runs in this process with its embedded broker; an admin
// client sends `request/backup` and waits for its answer while a 1 ms timer measures how late the loop
// runs (the stall a scan, a light or an HTTP request would wait). Settings: BENCH_BACKUP_MB (database
// size, default 150), BENCH_BACKUPS (backups measured, default 3).
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import Database from "better-sqlite3";
import mqtt from "mqtt";
import pino from "pino";
import { agentModules, BENCH_USER } from "./lib.mjs";

const { createAgent, parseConfig } = await agentModules();

const MB = Number(process.env.BENCH_BACKUP_MB ?? 150);
const BACKUPS = Number(process.env.BENCH_BACKUPS ?? 3);
const SITE = "bench";
const PPS = "1";

/** Pads the station database to about `mb` MB with rows of 1 KB (a bench-only table). */
function fill(path, mb) {
  const db = new Database(path);
  db.exec("CREATE TABLE IF NOT EXISTS bench_fill (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  const insert = db.prepare("INSERT INTO bench_fill (body) VALUES (?)");
  const rows = mb * 1000;
  const many = db.transaction((from, to) => {
    for (let i = from; i < to; i++) insert.run(`${i}:`.padEnd(1000, String.fromCharCode(97 + (i % 26))));
  });
  for (let i = 0; i < rows; i += 10_000) many(i, Math.min(rows, i + 10_000));
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
}

/** The longest gap of a 1 ms timer beyond its period while `work` runs, and the loop's delay histogram. */
async function stallDuring(work) {
  const hist = monitorEventLoopDelay({ resolution: 1 });
  hist.enable();
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 1);
    last = now;
  }, 1);
  const t0 = performance.now();
  try {
    await work();
  } finally {
    clearInterval(timer);
    hist.disable();
  }
  return { stallMs: longest, durationMs: performance.now() - t0, p99DelayMs: hist.percentile(99) / 1e6 };
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), "pps-edge-bench-backup-"));
  const config = parseConfig({
    dataDir: dir,
    ...BENCH_USER,
    site: SITE,
    ppsId: PPS,
    log: { level: "silent" },
    http: { host: "127.0.0.1", port: 0 },
    mqtt: { url: "embedded", embeddedPort: 0 },
  });
  try {
    const first = createAgent(config, { log: pino({ level: "silent" }) });
    await first.start(false);
    await first.stop();
    fill(join(dir, "pps-edge.db"), MB);
    const databaseMb = statSync(join(dir, "pps-edge.db")).size / 1e6;

    const agent = createAgent(config, { log: pino({ level: "silent" }) });
    await agent.start();
    const client = await mqtt.connectAsync(agent.sync.url, {
      username: BENCH_USER.adminUser,
      password: BENCH_USER.adminPassword,
      reconnectPeriod: 0,
    });
    const root = `ppsedge/v1/${SITE}/${PPS}`;
    await client.subscribeAsync(`${root}/response/backup`, { qos: 1 });
    const runs = [];
    for (let i = 0; i < BACKUPS; i++) {
      const answered = new Promise((resolve) =>
        client.once("message", (_t, payload) => resolve(String(payload))),
      );
      const r = await stallDuring(async () => {
        await client.publishAsync(`${root}/request/backup`, JSON.stringify({ transaction: `bench-${i}` }), {
          qos: 1,
        });
        const answer = JSON.parse(await answered);
        if (answer.status !== "ok") throw new Error(`backup ${i}: ${JSON.stringify(answer.error)}`);
      });
      runs.push(r);
    }
    await client.endAsync(true);
    await agent.stop();
    const worst = (k) => Math.max(...runs.map((r) => r[k]));
    return {
      config: { databaseMb: MB, backups: BACKUPS },
      result: {
        databaseMb: Math.round(databaseMb),
        longestStallMs: Math.round(worst("stallMs")),
        p99LoopDelayMs: Math.round(worst("p99DelayMs") * 10) / 10,
        backupMs: Math.round(worst("durationMs")),
        runs,
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The figures run.mjs compares between runs (compare.mjs). */
export function figures(r) {
  return {
    "longest event-loop stall during a backup ms": { value: r.result.longestStallMs, better: "lower" },
    "backup answered ms": { value: r.result.backupMs, better: "lower" },
  };
}
