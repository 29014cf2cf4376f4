// Issue "Security and robustness" soak: BENCH_SOAK_REQUESTS (100,000) mixed requests (soak-load.mjs)
// from BENCH_CONCURRENCY (8) clients while an operator works picks at the simulated station's seat
// (engine, lights, outbox) and a subscriber takes every notification from the embedded broker. The
// agent runs as `npm start` runs it (its own process, production Node flags, logging at info). Its
// resident set is read from /proc every second and at every 10,000 requests, its V8 heap at the same
// checkpoints. Target: RSS under 150 MB throughout, and no growth after the first 20,000 requests.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import mqtt from "mqtt";
import { agentFlags, BENCH_USER, benchToken, freePort, procStatusMb, startChild } from "./lib.mjs";
import { seedItems } from "./seed.mjs";
import { client, mixed, operator, soakLoad } from "./soak-load.mjs";

const REQUESTS = Number(process.env.BENCH_SOAK_REQUESTS ?? 100_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const ITEMS = Number(process.env.BENCH_ITEMS ?? 10_000);
const WARMUP = Number(process.env.BENCH_SOAK_WARMUP ?? 2000);
/** RSS and heap are read at every CHECKPOINT requests; growth is measured from GROWTH_FROM on. */
const CHECKPOINT = Math.min(10_000, Math.max(1, Math.floor(REQUESTS / 10)));
const GROWTH_FROM = Math.min(20_000, 2 * CHECKPOINT);
const TARGET_MB = 150;
/** What the old generation's collection cycle moves RSS by between two samples: not growth. */
const GROWTH_TOLERANCE_MB = 5;

/** Central's stand-in: takes every notification at QoS 1 and counts it. */
async function subscriber(port) {
  const sub = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
    clientId: `bench-central-${process.pid}`,
    username: BENCH_USER.adminUser,
    password: BENCH_USER.adminPassword,
    reconnectPeriod: 0,
  });
  const counted = { notifications: 0 };
  sub.on("message", () => counted.notifications++);
  await sub.subscribeAsync("ppsedge/v1/bench/1/notification", { qos: 1 });
  return { counted, close: () => sub.endAsync() };
}

/** The agent's V8 heap (servers/soak-agent.mjs writes it on SIGUSR2). */
async function heapOf(agent, file) {
  rmSync(file, { force: true });
  process.kill(agent.pid, "SIGUSR2");
  for (let waited = 0; waited < 2000; waited += 50) {
    await new Promise((r) => setTimeout(r, 50));
    try {
      return JSON.parse(readFileSync(file, "utf8"));
    } catch {
      // not written yet
    }
  }
  return null;
}

const load1 = () => Math.round(loadavg()[0] * 100) / 100;

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), "pps-edge-bench-soak-"));
  const heapFile = join(dir, "heap.json");
  try {
    const seeded = await seedItems(join(dir, "data"), ITEMS, { stock: true });
    const brokerPort = await freePort();
    const args = [join(dir, "data"), String(brokerPort), heapFile];
    const agent = await startChild("soak-agent.mjs", args, {}, agentFlags("soak-agent"));
    const rss = () => procStatusMb(agent.pid, "VmRSS");
    const base = `http://127.0.0.1:${agent.port}`;
    const call = client(base, await benchToken(base));
    const central = await subscriber(brokerPort);
    for (const [seat, user] of [
      ["front", "alice"],
      ["back", "bob"],
    ])
      await call("POST", `/station/seats/${seat}/login`, { user });
    const open = [];
    const seat = operator({ call, open });
    const send = mixed({ call, items: ITEMS, open });

    await soakLoad({ total: WARMUP, concurrency: CONCURRENCY, send: (i) => send(REQUESTS + i) });
    const start = { rssMb: rss(), heap: await heapOf(agent, heapFile), load1: load1() };
    const samples = [];
    let done = 0;
    const t0 = performance.now();
    const sampler = setInterval(() => {
      samples.push({ s: Math.round((performance.now() - t0) / 1000), requests: done, rssMb: rss() });
    }, 1000);
    const checkpoints = [];
    const soak = await soakLoad({
      total: REQUESTS,
      concurrency: CONCURRENCY,
      send,
      onDone: (n) => {
        done = n;
        if (n % CHECKPOINT !== 0) return;
        const point = { requests: n, rssMb: rss(), load1: load1() };
        checkpoints.push(point);
        heapOf(agent, heapFile).then((h) => {
          point.heap = h;
        });
      },
    });
    clearInterval(sampler);
    const outcomes = await seat.stop();
    await new Promise((r) => setTimeout(r, 500)); // the last notifications on their way
    const end = { rssMb: rss(), heap: await heapOf(agent, heapFile), load1: load1() };
    const peakMb = procStatusMb(agent.pid, "VmHWM");
    await central.close();
    await agent.stop();
    return summarise({ seeded, start, end, peakMb, soak, samples, checkpoints, outcomes, central });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function summarise({ seeded, start, end, peakMb, soak, samples, checkpoints, outcomes, central }) {
  const after = (n) => checkpoints.find((c) => c.requests >= n) ?? null;
  const at20k = after(GROWTH_FROM);
  const growthMb = at20k ? end.rssMb - at20k.rssMb : null;
  const later = samples.filter((s) => at20k && s.requests >= at20k.requests).map((s) => s.rssMb);
  const fivexx = Object.entries(soak.statuses)
    .filter(([s]) => !/^[1-4]\d\d$/.test(s))
    .reduce((n, [, c]) => n + c, 0);
  return {
    config: {
      requests: REQUESTS,
      concurrency: CONCURRENCY,
      items: ITEMS,
      warmup: WARMUP,
      growthFrom: GROWTH_FROM,
      retainTerminalSeconds: Number(process.env.BENCH_SOAK_RETAIN_SECONDS ?? 3600),
    },
    seed: seeded,
    requests: REQUESTS,
    statuses: soak.statuses,
    statusesByKind: soak.byKind,
    serverErrors: fivexx,
    seconds: Math.round(soak.seconds * 10) / 10,
    perSecond: Math.round(REQUESTS / soak.seconds),
    station: outcomes,
    notificationsReceived: central.counted.notifications,
    rssMb: {
      start: start.rssMb,
      peak: peakMb,
      end: end.rssMb,
      at20k: at20k?.rssMb ?? null,
      maxAfter20k: later.length ? Math.max(...later) : null,
      growthAfter20k: growthMb,
    },
    heapMb: { start: start.heap, end: end.heap },
    loadAverage: { start: start.load1, end: end.load1 },
    checkpoints,
    samples,
    met: {
      "no 5xx": fivexx === 0,
      [`RSS < ${TARGET_MB} MB`]: peakMb !== null && peakMb < TARGET_MB,
      [`no growth after ${GROWTH_FROM} requests (≤ ${GROWTH_TOLERANCE_MB} MB)`]:
        growthMb !== null && growthMb <= GROWTH_TOLERANCE_MB,
    },
  };
}

/** The figures run.mjs compares between runs (compare.mjs). */
export function figures(r) {
  return {
    "requests/s": { value: r.perSecond, better: "higher" },
    "RSS start MB": { value: r.rssMb.start, better: "lower" },
    "RSS peak MB": { value: r.rssMb.peak, better: "lower" },
    "RSS end MB": { value: r.rssMb.end, better: "lower" },
    "RSS growth after 20k MB": { value: r.rssMb.growthAfter20k, better: "lower" },
  };
}
