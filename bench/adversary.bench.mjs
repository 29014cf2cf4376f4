// Issue "Nobody can crash, stall or fill the station" benchmark: the adversary soak. For BENCH_SECONDS
// (`npm run bench -- adversary --seconds 60`; 300 by default) an adversary process from its own addresses
// (servers/adversary.mjs: pipelining, idle sockets, a CONNECT flood, a subscription flood, a pick-filter
// bomb, a disk filler, a slow read from four hosts, searches pipelined and never read; all at once
// unless BENCH_ATTACKS names a subset; BENCH_BOMB_LINES, BENCH_BOMB_EVERY_MS and
// BENCH_FILL_EVERY_MS size the last two) attacks the agent (servers/adversary-agent.mjs, every limit at
// its default) while the legitimate clients work: central over HTTP (a state read, an item search or a
// pick create every 100 ms, each with 2 s to answer) and MQTT (notifications, a `health_check` request
// every 5 s, 2 s to answer), an operator screen (the seat's event stream) and the operator's scanner (a
// scan every 100 ms, scan → light measured as scan-light.bench.mjs does). The legitimate clients first
// work alone for BENCH_QUIET_SECONDS: the floor of the same machine at the same time. Targets under
// attack: every legitimate request served, the agent's RSS peak < 200 MB, scan → light p99 < 20 ms,
// `/healthz` (asked every 100 ms from the legitimate clients' address) p99 < 100 ms.
// Limits and their refusals: docs/limits.md.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import mqtt from "mqtt";
import {
  agentDir,
  agentFlags,
  BENCH_DIR,
  BENCH_USER,
  DEFAULT_ATTACKS,
  freePort,
  procStatusMb,
  startChild,
  summary,
} from "./lib.mjs";
import { closePort, frameWaiter, openPort, ptyPair, sortexxUnit } from "./pty.mjs";
import { atTheStation, scanLoop, setUp, stationYaml } from "./scan-light.bench.mjs";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 300);
/** The legitimate clients alone first, BENCH_QUIET_SECONDS (a fifth of the attack, at most 60 s). */
const QUIET_SECONDS = Number(process.env.BENCH_QUIET_SECONDS ?? Math.min(60, Math.ceil(SECONDS / 5)));
const ROOT = "ppsedge/v1/bench/1";
/** The unauthenticated attacks come from one host, the integration user's from another. */
const ADVERSARY = {
  address: "127.0.0.2",
  userAddress: "127.0.0.3",
  user: "mallory",
  password: "mallory-password-123",
};
const SCRAPE = { Authorization: "Bearer bench-scrape-token-123" };
const TARGET_RSS_MB = 200;
const TARGET_SCAN_P99_MS = 20;
const TARGET_HEALTHZ_P99_MS = 100;
const SR_PATH = "/api-gateway/sr-service/platform-srms/service-request";
const SEARCH_PATH = "/api-gateway/mdm-service/wms-masterdata/item/search_v2";

/** The adversary's integration user, added with the command line as a maintainer would. */
function addUser(dataDir) {
  const env = {
    ...process.env,
    PPS_EDGE_DATA_DIR: dataDir,
    PPS_EDGE_CLIENT_ID: BENCH_USER.clientId,
    PPS_EDGE_CLIENT_SECRET: BENCH_USER.clientSecret,
    PPS_EDGE_LOG_LEVEL: "silent",
  };
  const main = join(agentDir(), "dist", "app", "main.js");
  const child = spawn(process.execPath, [main, "user", "add", ADVERSARY.user, "--role", "integration"], {
    env,
    stdio: ["pipe", "ignore", "inherit"],
  });
  child.stdin.end(`${ADVERSARY.password}\n`);
  return new Promise((ok, fail) =>
    child.once("exit", (code) => (code === 0 ? ok() : fail(new Error(`user add: exit ${code}`)))),
  );
}

/** Central over HTTP: one call every 100 ms, each with 2 s to answer; outcomes and latencies. */
function centralHttp(base, token) {
  const fresh = () => ({ sent: 0, ok: 0, failed: {}, ms: [] });
  let out = fresh();
  const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  let i = 0;
  const calls = [
    () => fetch(`${base}/station/state`, { headers, signal: AbortSignal.timeout(2000) }),
    () =>
      fetch(`${base}${SEARCH_PATH}`, {
        method: "POST",
        headers,
        body: JSON.stringify({ filter_params: [{ key: "product_sku", operator: "=", value: "A" }] }),
        signal: AbortSignal.timeout(2000),
      }),
    () =>
      fetch(`${base}${SR_PATH}`, {
        method: "POST",
        headers,
        body: JSON.stringify({
          externalServiceRequestId: `CENTRAL-${i}`,
          type: "PICK",
          serviceRequests: [
            {
              externalServiceRequestId: `CENTRAL-${i}-1`,
              type: "PICK_LINE",
              expectations: {
                containers: [
                  {
                    products: [
                      {
                        productQuantity: 1,
                        productAttributes: { filter_parameters: ["product_sku = 'LOAD'"] },
                      },
                    ],
                  },
                ],
              },
            },
          ],
        }),
        signal: AbortSignal.timeout(2000),
      }),
  ];
  const timer = setInterval(async () => {
    const call = calls[i++ % calls.length];
    const o = out; // counted in the phase it was sent in
    o.sent++;
    const t0 = performance.now();
    try {
      const res = await call();
      await res.arrayBuffer();
      o.ms.push(performance.now() - t0);
      if (res.ok) o.ok++;
      else o.failed[res.status] = (o.failed[res.status] ?? 0) + 1;
    } catch (e) {
      const why = e.name === "TimeoutError" ? "timeout" : (e.cause?.code ?? e.message);
      o.failed[why] = (o.failed[why] ?? 0) + 1;
    }
  }, 100);
  return {
    /** This phase's outcomes; counting starts afresh. */
    next: () => {
      const done = out;
      out = fresh();
      return done;
    },
    stop: () => clearInterval(timer),
  };
}

/** `/healthz` every 100 ms, each with 2 s to answer, as a monitor would ask it; outcomes and latencies. */
function healthz(base) {
  const fresh = () => ({ sent: 0, ok: 0, failed: {}, ms: [] });
  let out = fresh();
  const timer = setInterval(async () => {
    const o = out;
    o.sent++;
    const t0 = performance.now();
    try {
      const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      o.ms.push(performance.now() - t0);
      if (res.ok) o.ok++;
      else o.failed[res.status] = (o.failed[res.status] ?? 0) + 1;
    } catch (e) {
      const why = e.name === "TimeoutError" ? "timeout" : (e.cause?.code ?? e.message);
      o.failed[why] = (o.failed[why] ?? 0) + 1;
    }
  }, 100);
  return {
    next: () => {
      const done = out;
      out = fresh();
      return done;
    },
    stop: () => clearInterval(timer),
  };
}

/** Central over MQTT: subscribed to the station, a health_check every 5 s with 2 s to answer. */
async function centralMqtt(brokerPort) {
  const fresh = () => ({ sent: 0, answered: 0, late: 0, notifications: 0, disconnects: 0, ms: [] });
  let out = fresh();
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${brokerPort}`, {
    username: BENCH_USER.adminUser,
    password: BENCH_USER.adminPassword,
    protocolVersion: 4,
    reconnectPeriod: 500,
  });
  client.on("close", () => out.disconnects++);
  const waiting = new Map();
  client.on("message", (topic, payload) => {
    if (topic === `${ROOT}/notification`) out.notifications++;
    if (topic !== `${ROOT}/response/health_check`) return;
    const w = waiting.get(JSON.parse(payload.toString()).transaction);
    if (w) w();
  });
  await client.subscribeAsync([`${ROOT}/notification`, `${ROOT}/response/#`], { qos: 1 });
  let n = 0;
  const timer = setInterval(() => {
    const transaction = `hc-${n++}`;
    const t0 = performance.now();
    const o = out;
    o.sent++;
    const late = setTimeout(() => {
      o.late++;
      waiting.delete(transaction);
    }, 2000);
    waiting.set(transaction, () => {
      clearTimeout(late);
      waiting.delete(transaction);
      o.answered++;
      o.ms.push(performance.now() - t0);
    });
    client.publish(`${ROOT}/request/health_check`, JSON.stringify({ transaction }), { qos: 1 });
  }, 5000);
  return {
    next: () => {
      const done = out;
      out = fresh();
      return done;
    },
    stop: async () => {
      clearInterval(timer);
      await new Promise((r) => setTimeout(r, 2100));
      // forced: a broker that died with its agent would never answer a clean disconnect
      await client.endAsync(true);
    },
  };
}

/** The operator screen: the seat's event stream, reopened if it closes; states received. */
function screen(port, token) {
  const out = { states: 0, opened: 0, closed: 0 };
  let req;
  let stopped = false;
  const open = () => {
    req = http.get(
      {
        host: "127.0.0.1",
        port,
        path: "/station/seats/front/screen/events",
        headers: { Authorization: `Bearer ${token}`, Accept: "text/event-stream" },
      },
      (res) => {
        if (res.statusCode === 200) out.opened++;
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          out.states += chunk.split("event: screen\n").length - 1;
        });
        res.on("close", () => {
          out.closed++;
          if (!stopped) setTimeout(open, 200);
        });
      },
    );
    req.on("error", () => {});
  };
  open();
  return {
    out,
    stop: () => {
      stopped = true;
      req?.destroy();
    },
  };
}

function startAdversary(port, brokerPort) {
  const script = join(BENCH_DIR, "servers", "adversary.mjs");
  const { address, userAddress, user } = ADVERSARY;
  const args = [script, "127.0.0.1", String(port), String(brokerPort), address, userAddress, user];
  const child = spawn(process.execPath, [...args, ADVERSARY.password, ROOT], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let text = "";
  child.stdout.on("data", (d) => {
    text += d;
  });
  return new Promise((ok) =>
    child.stdout.once("data", () =>
      ok(async () => {
        const exited = new Promise((done) => child.once("exit", done));
        process.kill(child.pid, "SIGTERM");
        await exited;
        return JSON.parse(/STATS (.*)/.exec(text)?.[1] ?? "{}");
      }),
    ),
  );
}

/** `budget_refusals_total` by reason, from the agent's /metrics. */
async function refusals(base) {
  const res = await fetch(`${base}/metrics`, { headers: SCRAPE }).catch(() => null);
  if (!res?.ok) return null; // an agent that died, or a build without the counter
  const text = await res.text();
  const out = {};
  for (const m of text.matchAll(/^budget_refusals_total\{reason="([^"]+)"\} (\d+)/gm))
    out[m[1]] = Number(m[2]);
  return out;
}

/**
 * The agent's own event-loop delay since the last call (prom-client's `nodejs_eventloop_lag_*`, whose
 * histogram restarts at each scrape): tells a wait spent in the agent from one spent in the machine
 * (the kernel, the other processes, the client's own loop).
 */
async function loopDelay(base) {
  const res = await fetch(`${base}/metrics`, { headers: SCRAPE }).catch(() => null);
  if (!res?.ok) return null;
  const text = await res.text();
  const read = (name) => {
    const m = new RegExp(`^nodejs_eventloop_lag_${name}_seconds (\\S+)`, "m").exec(text);
    return m ? Math.round(Number(m[1]) * 1e6) / 1000 : null;
  };
  return { p50: read("p50"), p90: read("p90"), p99: read("p99"), max: read("max") };
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), "pps-edge-bench-adversary-"));
  const scannerPty = await ptyPair("scanner");
  const ptlPty = await ptyPair("ptl");
  const scanner = await openPort(scannerPty.device);
  const controller = await openPort(ptlPty.device);
  const waiter = frameWaiter();
  sortexxUnit(controller, waiter.onFrame);
  const stationFile = join(dir, "station.yaml");
  writeFileSync(stationFile, stationYaml(scannerPty.agent, ptlPty.agent));
  const dataDir = join(dir, "data");
  const brokerPort = await freePort();
  const agent = await startChild(
    "adversary-agent.mjs",
    [dataDir, stationFile, String(brokerPort)],
    {},
    agentFlags("adversary-agent"),
  );
  const base = `http://127.0.0.1:${agent.port}`;
  let running = true;
  const alive = () => {
    try {
      process.kill(agent.pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const stopAgent = async () => {
    // an agent the attack killed has exited already: nothing to wait for
    if (running && alive()) await agent.stop();
    running = false;
  };
  try {
    const token = await setUp(base);
    await atTheStation(scanner, waiter);
    await addUser(dataDir);
    const rssStart = procStatusMb(agent.pid, "VmRSS");

    const central = centralHttp(base, token);
    const probe = healthz(base);
    const mq = await centralMqtt(brokerPort);
    const seat = screen(agent.port, token);
    const rss = [];
    const sampler = setInterval(() => rss.push(procStatusMb(agent.pid, "VmRSS")), 1000);
    await loopDelay(base); // from here
    // first the legitimate clients alone, on the same machine at the same time: the floor to read the
    // attack's figures against (a shared machine's load shows in both)
    const quietUntil = performance.now() + QUIET_SECONDS * 1000;
    const quietScans = await scanLoop(scanner, waiter, () => performance.now() < quietUntil);
    const quiet = {
      central: central.next(),
      healthz: probe.next(),
      mqtt: mq.next(),
      scans: quietScans,
      rss: rss.splice(0),
      peakMb: procStatusMb(agent.pid, "VmHWM"),
      loop: await loopDelay(base),
    };
    const stopAdversary = await startAdversary(agent.port, brokerPort);
    const attackUntil = performance.now() + SECONDS * 1000;
    const scans = await scanLoop(scanner, waiter, () => performance.now() < attackUntil);
    const adversary = await stopAdversary();
    clearInterval(sampler);
    central.stop();
    probe.stop();
    await mq.stop();
    seat.stop();
    const survived = alive();
    const attack = {
      central: central.next(),
      healthz: probe.next(),
      mqtt: mq.next(),
      scans,
      rss,
      peakMb: procStatusMb(agent.pid, "VmHWM"),
      loop: await loopDelay(base),
    };
    const refused = await refusals(base);
    await stopAgent();
    return { ...summarise({ rssStart, quiet, attack, seat: seat.out, adversary, refused }), survived };
  } finally {
    await stopAgent();
    await closePort(scanner);
    await closePort(controller);
    await scannerPty.close();
    await ptlPty.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** One phase's figures: the legitimate clients' success and latency, scan → light, RSS. */
function phaseFigures({ central, healthz, mqtt, scans, rss, peakMb, loop }) {
  const served = central.ok + mqtt.answered + healthz.ok;
  const asked = central.sent + mqtt.sent + healthz.sent;
  return {
    legitimate: {
      successRatePercent: asked ? Math.round((served / asked) * 100_000) / 1000 : null,
      p99Ms: summary([...central.ms, ...mqtt.ms]).p99,
      http: { sent: central.sent, ok: central.ok, failed: central.failed, ms: summary(central.ms) },
      mqtt: { ...mqtt, ms: summary(mqtt.ms) },
      healthz: { sent: healthz.sent, ok: healthz.ok, failed: healthz.failed, ms: summary(healthz.ms) },
    },
    scanToLightMs: { ...summary(scans.ms), lost: scans.lost },
    rssMb: { peak: peakMb, maxSampled: rss.length ? Math.max(...rss) : null },
    agentLoopDelayMs: loop,
    allServed: served === asked && scans.lost === 0,
  };
}

function summarise({ rssStart, quiet, attack, seat, adversary, refused }) {
  const q = phaseFigures(quiet);
  const a = phaseFigures(attack);
  return {
    config: {
      seconds: SECONDS,
      quietSeconds: QUIET_SECONDS,
      attacks: process.env.BENCH_ATTACKS ?? DEFAULT_ATTACKS,
      bombLines: Number(process.env.BENCH_BOMB_LINES ?? 500),
      bombEveryMs: Number(process.env.BENCH_BOMB_EVERY_MS ?? 10_000),
      fillEveryMs: Number(process.env.BENCH_FILL_EVERY_MS ?? 1_000),
    },
    rssStartMb: rssStart,
    quiet: q,
    attack: a,
    screen: seat,
    adversary,
    refusals: refused,
    met: {
      "100% of legitimate requests served": a.allServed,
      [`RSS peak < ${TARGET_RSS_MB} MB`]: a.rssMb.peak !== null && a.rssMb.peak < TARGET_RSS_MB,
      [`scan → light p99 < ${TARGET_SCAN_P99_MS} ms`]: a.scanToLightMs.p99 < TARGET_SCAN_P99_MS,
      [`/healthz p99 < ${TARGET_HEALTHZ_P99_MS} ms`]:
        a.legitimate.healthz.ms.p99 !== undefined && a.legitimate.healthz.ms.p99 < TARGET_HEALTHZ_P99_MS,
    },
  };
}

/** The figures run.mjs compares between runs (compare.mjs). */
export function figures(r) {
  return {
    "legitimate success %": { value: r.attack.legitimate.successRatePercent, better: "higher" },
    "legitimate p99 ms": { value: r.attack.legitimate.p99Ms, better: "lower" },
    "RSS peak MB": { value: r.attack.rssMb.peak, better: "lower" },
    "/healthz p99 ms": { value: r.attack.legitimate.healthz?.ms.p99, better: "lower" },
    "scan → light p99 ms": { value: r.attack.scanToLightMs.p99, better: "lower" },
    "quiet scan → light p99 ms": { value: r.quiet.scanToLightMs.p99, better: "lower", reference: true },
  };
}
