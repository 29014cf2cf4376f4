// Issue 14 fleet benchmark: BENCH_FLEET_N agents (10; or `npm run bench fleet` with BENCH_FLEET_N=20),
// each its own process with its own data folder, produce BENCH_FLEET_RATE notifications/s each (50)
// into one Mosquitto without persistence; the reference consumer (examples/central-consumer/, its own
// process) takes them all. Steady state for BENCH_FLEET_SECONDS (20): notifications/s at central and
// latency from commit (`committedAt` in the notification) to delivery, with a `$share` group of two
// plain subscribers beside it to measure what round robin does to per-station order. Then the broker
// is stopped for BENCH_FLEET_OUTAGE_SECONDS (5) under load and started again (losing its sessions):
// catch-up is the time from its return until every station's backlog (all it had committed by then)
// is delivered. Last, the load stops and everything must arrive: lost, reordered and duplicates are
// counted over the whole run; agent, consumer and broker RSS from /proc.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { clusterFigures, runCluster } from "./fleet-cluster.bench.mjs";
import { startCentral, startFleetAgent, until } from "./fleet-procs.mjs";
import { shareGroup, watchReconnects } from "./fleet-watch.mjs";
import { procStatusMb, summary } from "./lib.mjs";
import { hasMosquitto, startMosquitto } from "./mosquitto.mjs";

const N = Number(process.env.BENCH_FLEET_N ?? 10);
const RATE = Number(process.env.BENCH_FLEET_RATE ?? 50);
const STEADY_S = Number(process.env.BENCH_FLEET_SECONDS ?? 20);
const OUTAGE_S = Number(process.env.BENCH_FLEET_OUTAGE_SECONDS ?? 5);
const SITE = "fleet";
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const say = (text) => process.stderr.write(`bench fleet: ${text}\n`);

/** The reference consumer as an integrator runs it, on the one Mosquitto. */
const startConsumer = (dir, url) =>
  startCentral(["--url", url, "--site", SITE, "--state", join(dir, "central.db")]);
const startAgent = (dir, url, ppsId) => startFleetAgent(dir, url, SITE, ppsId);

/** Steady state: throughput at central, latency of what was committed after a warm-up, `$share` order. */
async function steady(broker, consumer, agents) {
  const share = await shareGroup(broker.url, SITE, 2);
  const t0 = Date.now();
  for (const a of agents) a.send(`go ${RATE}`);
  await sleep(2000); // warm-up
  const d0 = consumer.watch.delivered();
  const from = Date.now();
  await sleep(STEADY_S * 1000);
  const to = Date.now();
  const d1 = consumer.watch.delivered();
  const lat = consumer.watch.latencies.filter((l) => l.committedAt >= from && l.committedAt < to - 1000);
  return {
    startedAt: t0,
    offeredPerSecond: N * RATE,
    perSecondAtCentral: Math.round((d1 - d0) / ((to - from) / 1000)),
    latencyMs: summary(lat.map((l) => l.ms)),
    share: await share.stop(),
  };
}

/** The broker stopped under load and started again: time until every station's backlog is delivered. */
async function outage(broker, consumer, agents) {
  await broker.stop();
  await sleep(OUTAGE_S * 1000);
  await broker.start();
  const back = Date.now();
  const ids = agents.map((a) => a.station.slice(a.station.indexOf("/") + 1));
  const reconnected = watchReconnects(broker.url, SITE, ids, back);
  const targets = agents.map((a) => a.lastSeq());
  const backlog = agents.reduce((n, a, i) => n + targets[i] - consumer.watch.last(a.station), 0);
  const caughtUp = agents.map(() => null);
  const ms = await until(
    "every station's backlog",
    () => {
      agents.forEach((a, i) => {
        if (caughtUp[i] === null && consumer.watch.last(a.station) >= targets[i]) caughtUp[i] = Date.now();
      });
      return caughtUp.every((t) => t !== null);
    },
    180_000,
  );
  const reconnectMs = await reconnected;
  return {
    outageSeconds: OUTAGE_S,
    backlog,
    // every station connected again (its ONLINE), then every backlog delivered at central
    allReconnectedMs: Math.max(...reconnectMs),
    perStationReconnectMs: summary(reconnectMs),
    catchUpMs: ms,
    perStationCatchUpMs: summary(caughtUp.map((t) => t - back)),
  };
}

/** Load off; everything committed must arrive. Lost, reordered and duplicates over the whole run. */
async function drain(consumer, agents) {
  for (const a of agents) a.send("halt");
  // every agent has read `halt` once its outbox stops growing
  let committed = agents.map((a) => a.lastSeq());
  for (let still = 0; still < 3; ) {
    await sleep(500);
    const now = agents.map((a) => a.lastSeq());
    still = now.every((s, i) => s === committed[i]) ? still + 1 : 0;
    committed = now;
  }
  const complete = () => agents.every((a, i) => consumer.watch.distinct(a.station) >= committed[i]);
  let drained = true;
  await until("every notification", complete, 60_000).catch(() => {
    drained = false;
  });
  const st = agents.map((a) => consumer.watch.stations.get(a.station));
  const sum = (f) => st.reduce((n, s) => n + (s ? f(s) : 0), 0);
  const total = committed.reduce((n, c) => n + c, 0);
  return {
    drained,
    committed: total,
    delivered: consumer.watch.delivered(),
    lost: total - sum((s) => s.ids.size),
    reordered: sum((s) => s.reordered),
    duplicates: sum((s) => s.duplicates),
  };
}

/** `--broker rabbitmq-cluster|nats-cluster|mosquitto` (run.mjs): node kills and central's outage, fleet-cluster.bench.mjs. */
const onCluster = () => process.env.BENCH_FLEET_BROKER !== undefined;

export async function run() {
  if (onCluster()) return runCluster();
  if (!hasMosquitto()) return { skipped: "mosquitto is not installed" };
  const dir = mkdtempSync(join(tmpdir(), "pps-edge-bench-fleet-"));
  const broker = await startMosquitto(dir);
  const consumer = startConsumer(dir, broker.url);
  const agents = [];
  try {
    // five at a time: each start migrates a fresh database
    for (let i = 1; i <= N; i += 5) {
      const batch = [];
      for (let j = i; j < i + 5 && j <= N; j++) batch.push(startAgent(dir, broker.url, String(j)));
      agents.push(...(await Promise.all(batch)));
    }
    await sleep(2000); // every station connected and announced
    say(`${N} agents up; ${STEADY_S} s at ${RATE}/s each`);
    const s = await steady(broker, consumer, agents);
    say(`steady: ${s.perSecondAtCentral}/s at central; broker down for ${OUTAGE_S} s`);
    const o = await outage(broker, consumer, agents);
    say(
      `all reconnected ${o.allReconnectedMs} ms, caught up ${o.catchUpMs} ms after the broker's return; draining`,
    );
    const d = await drain(consumer, agents);
    const agentRss = agents.map((a) => procStatusMb(a.pid, "VmHWM"));
    const memory = {
      agentPeakRssMb: { max: Math.max(...agentRss), median: summary(agentRss).p50 },
      consumerPeakRssMb: procStatusMb(consumer.pid, "VmHWM"),
      brokerRssMb: procStatusMb(broker.pid(), "VmRSS"),
    };
    await consumer.stop();
    const stats = consumer.events.findLast((e) => e.event === "stopped") ?? null;
    return summarise(s, o, d, memory, stats);
  } finally {
    await Promise.all(agents.map((a) => a.stop()));
    await consumer.stop().catch(() => {});
    await broker.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function summarise(steadyState, outageRun, drained, memory, consumerStats) {
  return {
    config: { stations: N, perStationPerSecond: RATE, steadySeconds: STEADY_S, outageSeconds: OUTAGE_S },
    steady: steadyState,
    restart: outageRun,
    total: drained,
    memory,
    consumer: consumerStats,
    met: {
      "nothing lost": drained.lost === 0,
      "nothing reordered or delivered twice": drained.reordered === 0 && drained.duplicates === 0,
      "every station connected again within 10 s of the broker's return":
        outageRun.allReconnectedMs <= 10_000,
      "catch-up within 10 s of the broker's return": outageRun.catchUpMs <= 10_000,
      "agent RSS < 150 MB": memory.agentPeakRssMb.max < 150,
    },
  };
}

/** The figures run.mjs compares between runs (compare.mjs). */
export function figures(r) {
  if (r.skipped) return {};
  if (r.config?.broker) return clusterFigures(r);
  return {
    "notifications/s at central": { value: r.steady.perSecondAtCentral, better: "higher" },
    "latency p50 ms": { value: r.steady.latencyMs.p50, better: "lower" },
    "latency p99 ms": { value: r.steady.latencyMs.p99, better: "lower" },
    "all reconnected ms": { value: r.restart.allReconnectedMs, better: "lower" },
    "catch-up ms": { value: r.restart.catchUpMs, better: "lower" },
    "agent peak RSS MB": { value: r.memory.agentPeakRssMb.max, better: "lower" },
  };
}
