// Shared helpers for the benchmarks: child servers, a bounded load loop, percentiles.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import { cpus } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const BENCH_DIR = dirname(fileURLToPath(import.meta.url));

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
 * The V8 flags the agent runs with in production (`npm start`, systemd/pps-edge.service): a small young
 * generation keeps the resident set of a busy station under 150 MB (DESIGN.md §7). A test keeps the three
 * places in step.
 */
export const AGENT_NODE_FLAGS = ["--max-semi-space-size=4", "--max-old-space-size=256"];

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

/** Peak resident memory of a process so far (Linux VmHWM), in MB. */
export function peakRssMb(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

export function machine() {
  return { node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model ?? "unknown" };
}

export function writeResult(name, result) {
  const dir = join(BENCH_DIR, "results");
  mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const body = JSON.stringify(
    { name, date: new Date().toISOString(), machine: machine(), ...result },
    null,
    2,
  );
  writeFileSync(join(dir, `${name}-${stamp}.json`), body);
  writeFileSync(join(dir, `${name}-latest.json`), body);
  return join(dir, `${name}-latest.json`);
}
