// Shared helpers for the benchmarks: the agent build under test, child servers, a bounded load loop,
// percentiles.

import { spawn, spawnSync } from "node:child_process";
import {
  closeSync,
  existsSync,
  fdatasyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import http from "node:http";
import { createServer } from "node:net";
import { cpus, hostname, setPriority } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const BENCH_DIR = dirname(fileURLToPath(import.meta.url));

/**
 * The checkout whose `dist/` is measured: this one, or another one built with `npm run build`
 * (`npm run bench -- picks --agent-dir ../old`, which sets BENCH_AGENT_DIR for the benchmark and for
 * every server it starts), so a before/after pair runs on the same machine in the same hour.
 */
/**
 * The adversary bench's attacks when BENCH_ATTACKS names none: all of them (servers/adversary.mjs), the
 * slow read and the unread searches included, at once.
 */
export const DEFAULT_ATTACKS = "pipelining,idle,connect,subscribe,bomb,filler,slowread,unread";

export const agentDir = () => resolve(process.env.BENCH_AGENT_DIR || join(BENCH_DIR, ".."));

/** `createAgent` and `parseConfig` of the build under test (the only two entry points the benches use). */
export async function agentModules() {
  const load = (file) => import(pathToFileURL(join(agentDir(), "dist", file)).href);
  const [{ createAgent }, { parseConfig }] = await Promise.all([
    // dist/app/agent.js; a build from before the composition root moved into app/ has dist/agent.js
    load(existsSync(join(agentDir(), "dist", "app", "agent.js")) ? "app/agent.js" : "agent.js"),
    load("config/config.load.js"),
  ]);
  return { createAgent, parseConfig };
}

/** The API client and user every bench agent is started with (spread into its `parseConfig` input). */
export const BENCH_USER = {
  clientId: "bench",
  clientSecret: "bench-client-secret",
  adminUser: "bench",
  adminPassword: "bench-password-123",
};

/**
 * The per-user rates (`http.costly*`, `http.stored*`) lifted, spread into a bench agent's `http`: the
 * benches measure what a search, a report or an item costs, not the pace one user is held to
 * (docs/limits.md; the adversary soak keeps them).
 */
export const NO_USER_RATES = {
  costlyRequestsPerSecond: 100_000,
  costlyBurst: 100_000,
  storedBytesPerSecond: 2 ** 40,
  storedBurstBytes: 2 ** 40,
};

/**
 * An access token of the bench user (password grant) from the agent at `base`; `request` is `fetch`, or
 * an in-process app's `request` with `base` "".
 */
export async function benchToken(base, request = fetch) {
  const basic = Buffer.from(`${BENCH_USER.clientId}:${BENCH_USER.clientSecret}`).toString("base64");
  const res = await request(`${base}/api-gateway/auth-service/platform-auth/oauth/token`, {
    method: "POST",
    headers: { Authorization: `Basic ${basic}`, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "password",
      username: BENCH_USER.adminUser,
      password: BENCH_USER.adminPassword,
    }).toString(),
  });
  if (res.status !== 200) throw new Error(`bench token: ${res.status} ${await res.text()}`);
  return (await res.json()).access_token;
}

/** Which build was measured: its folder, commit, and whether its sources differ from that commit. */
export function agentBuild() {
  const dir = agentDir();
  const git = (...args) => spawnSync("git", ["-C", dir, ...args], { encoding: "utf8" });
  const head = git("rev-parse", "--short", "HEAD");
  const dirty = git("status", "--porcelain", "--", "src");
  return {
    dir,
    commit: head.status === 0 ? head.stdout.trim() : null,
    srcChanged: dirty.status === 0 ? dirty.stdout.trim().length > 0 : null,
  };
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export function summary(latenciesMs) {
  const s = [...latenciesMs].sort((a, b) => a - b);
  const round = (x) => Math.round(x * 1000) / 1000;
  return {
    n: s.length,
    p50: round(percentile(s, 50)),
    p90: round(percentile(s, 90)),
    p99: round(percentile(s, 99)),
    max: round(s[s.length - 1]),
  };
}

/**
 * `cmd args` to run at niceness `level` (nice(1) execs `cmd`, so the process id is the same), as
 * [command, args]. The cluster fleet bench runs brokers, central and the other stations so: on a
 * warehouse's hardware they are on other machines, and here they must not take the CPU of the stations
 * whose scan → light is measured. 0: as is. `"idle"`: the SCHED_IDLE policy (chrt(1), which execs
 * too): the process runs only when no process of the normal policy wants the CPU, which nice alone
 * does not give when a dozen niced threads are runnable at once (sched(7)).
 */
export const niced = (level, cmd, args) => {
  if (level === "idle") return ["chrt", ["--idle", "0", cmd, ...args]];
  return level > 0 ? ["nice", ["-n", String(level), cmd, ...args]] : [cmd, args];
};

/** This process, and every thread of it, at `level` as `niced` takes it. */
export function niceSelf(level) {
  if (level === "idle") {
    const r = spawnSync("chrt", ["--all-tasks", "--idle", "-p", "0", String(process.pid)]);
    if (r.status !== 0) throw new Error(`chrt: ${r.stderr}`);
  } else if (level > 0) setPriority(level);
}

/**
 * The V8 flags the agent runs with in production (`npm start`, systemd/pps-edge.service): a small young
 * generation keeps the resident set of a busy station under 150 MB (docs/architecture.md#performance-targets). A test keeps the three
 * places in step.
 */
export const AGENT_NODE_FLAGS = ["--max-semi-space-size=4", "--max-old-space-size=256"];

/**
 * The agent's flags for a benchmark child `role` (agent, station-agent, ...): the production ones,
 * plus a CPU profile into <BENCH_CPU_PROF_DIR>/<role>/ when `npm run bench -- --cpu-prof` asked for
 * one (written when the child exits; summarise it with bench/profile-summary.mjs), plus the SQL
 * counter (sql-count.mjs) writing into <BENCH_SQL_COUNT_DIR>/<role>/ for `--sql-count`.
 */
export function agentFlags(role) {
  const flags = [...AGENT_NODE_FLAGS];
  const prof = process.env.BENCH_CPU_PROF_DIR;
  const interval = process.env.BENCH_CPU_PROF_INTERVAL_US;
  if (prof) flags.push("--cpu-prof", `--cpu-prof-dir=${join(prof, role)}`);
  if (prof && interval) flags.push(`--cpu-prof-interval=${interval}`);
  const sql = process.env.BENCH_SQL_COUNT_DIR;
  if (sql) {
    const out = encodeURIComponent(join(sql, role));
    flags.push(`--import=${pathToFileURL(join(BENCH_DIR, "sql-count.mjs")).href}?out=${out}`);
  }
  return flags;
}

/** Starts a server script in a child process; it prints `READY <port> <json>` when listening. */
export function startChild(script, args = [], env = {}, nodeFlags = []) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [...nodeFlags, join(BENCH_DIR, "servers", script), ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let buf = "";
    const onData = (d) => {
      buf += d.toString();
      const m = /READY (\d+) (.*)\n/.exec(buf);
      if (m) {
        child.stdout.off("data", onData);
        child.stdout.resume();
        resolve({
          port: Number(m[1]),
          info: JSON.parse(m[2]),
          spawnToReadyMs: performance.now() - t0,
          pid: child.pid,
          stop: () =>
            new Promise((ok) => {
              child.once("exit", () => ok());
              child.kill("SIGTERM");
            }),
        });
      }
    };
    child.stdout.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code} before READY`)));
  });
}

/** Sends `total` requests with `concurrency` in flight; returns throughput and latencies. */
export async function load({ total, concurrency, send }) {
  const latencies = [];
  let next = 0;
  let failures = 0;
  const t0 = performance.now();
  async function worker() {
    while (next < total) {
      const i = next++;
      const s = performance.now();
      const res = await send(i);
      latencies.push(performance.now() - s);
      if (res.status !== 200) failures++;
      await res.arrayBuffer();
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - t0) / 1000;
  return {
    total,
    concurrency,
    seconds: Math.round(seconds * 1000) / 1000,
    perSecond: Math.round(total / seconds),
    failures,
    latencyMs: summary(latencies),
  };
}

/**
 * A lean keep-alive HTTP client (node:http) for latency measurements: fetch's own allocations and
 * garbage collection in the measuring process would otherwise show in the tail being measured.
 */
export function keepAliveRequest(port) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return (method, path, headers, body) =>
    new Promise((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port, method, path, headers, agent }, (res) => {
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
      });
      req.on("error", reject);
      req.end(body);
    });
}

/**
 * What one durable commit costs the disk right now: 4 KB appended and fdatasync'd `n` times in `dir`
 * (as a WAL commit at synchronous=FULL does), p50 and p90 in ms. Other work on a shared machine moves
 * it a lot, and with it every durable figure: the results keep it beside them.
 */
export function fsyncProbe(dir, n = 40) {
  const file = join(dir, "fsync-probe");
  const fd = openSync(file, "a");
  const page = Buffer.alloc(4096, 1);
  const ms = [];
  try {
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      writeSync(fd, page);
      fdatasyncSync(fd);
      ms.push(performance.now() - t0);
    }
  } finally {
    closeSync(fd);
    rmSync(file, { force: true });
  }
  const s = summary(ms);
  return { p50: s.p50, p90: s.p90 };
}

/** A memory figure of a process from /proc/<pid>/status (VmRSS: resident now, VmHWM: peak), in MB. */
export function procStatusMb(pid, field) {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** Peak resident memory of a process so far (Linux VmHWM), in MB. */
export const peakRssMb = (pid) => procStatusMb(pid, "VmHWM");

/** A TCP port free on loopback right now (for a broker the agent is told to listen on). */
export function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

export function machine() {
  return {
    host: hostname(),
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? "unknown",
  };
}

export const RESULTS_DIR = join(BENCH_DIR, "results");

/** Writes a result record as bench/results/<name>-<time>.json and <name>-latest.json. */
export function writeResult(name, record) {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const stamp = record.date.replace(/[:.]/g, "-");
  const body = JSON.stringify(record, null, 2);
  const file = join(RESULTS_DIR, `${name}-${stamp}.json`);
  writeFileSync(file, body);
  writeFileSync(join(RESULTS_DIR, `${name}-latest.json`), body);
  return file;
}
