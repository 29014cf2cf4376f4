// The fleet on a clustered broker (issue 28; `npm run bench fleet -- --broker
// rabbitmq-cluster|nats-cluster|mosquitto`): BENCH_FLEET_N (3) real agents, each on its own node with the
// others as `mqtt.failoverUrls`, and BENCH_FLEET_SIM (27) simulated stations (sim-station.mjs, in
// servers/sim-fleet.mjs) produce BENCH_FLEET_RATE (2) notifications/s each for BENCH_FLEET_SECONDS (150);
// every BENCH_FLEET_KILL_EVERY (60) s a node is SIGKILLed and started again BENCH_FLEET_DOWN (20) s later.
// Central: BENCH_FLEET_REPLICAS (2) reference consumers: on RabbitMQ its AMQP path (quorum queues, single
// active consumer, BENCH_FLEET_PARTITIONS (4)); on NATS its MQTT path with its own partitioning, given
// every node, and the node killed there is the leader of the stream of MQTT messages. Mosquitto has no
// cluster: its one node is the one killed, nobody can fail over, and failover and catch-up are also
// reported from its return. Then central's outage: the replicas stopped for BENCH_FLEET_OUTAGE (30) s
// while the stations keep producing, started again, and the time until the backlog is drained.
// Reported: acknowledged by stations, delivered to central, missing after repair, per-station
// inversions, duplicates, failover (a real agent's delivery cursor moving on; a simulated station's
// next connection, and its first acknowledgement there; for the simulated ones also the time from
// their CONNACK to the SUBACK and the first PUBACKs) and catch-up after each kill (until central has
// everything committed up to 2 s after the kill), end-to-end p50/p99, what central's replicas logged
// (counts per event), CPU seconds and RSS per process (broker nodes: since their last start). The
// figures and what they were measured at go to bench/results/ (run.mjs). On NATS the agents subscribe
// their requests at BENCH_FLEET_REQUEST_QOS (0; docs/mqtt.md#nats).
// BENCH_FLEET_LONG_DOWN (0) s: the node of kill number BENCH_FLEET_LONG_DOWN_AT (1, from 0) stays down that
// long instead (the next kill waits for it: two nodes of three down is no quorum). Central's outage is
// at the compressed rate BENCH_FLEET_OUTAGE_RATE (5) notifications/s per station: a one-line pick makes
// three (pick_started, complete, bin_complete), so 1,000 picks/h is 0.83/s and 10 minutes at 5/s is the
// backlog of an hour; during the drain the stations go on at that live rate (BENCH_FLEET_LIVE_RATE).
// The first BENCH_FLEET_SCANNED (1) real agents have a serial scanner and a SorTexx controller on
// pseudo-terminals (scan-light.bench.mjs), scanned from a process of its own (servers/scan-probe.mjs):
// a scan every 100 ms the whole run, scan → light reported per phase (load and kills, central's outage,
// the drain). Everything else (broker nodes, central's replicas, the simulated stations, the other real
// agents, and this process once it has started the scanned ones) runs under the SCHED_IDLE policy
// (BENCH_FLEET_NICE `idle`, lib.mjs `niced`; a number: that niceness instead; 0: as is), and the
// broker nodes and central keep their files in BENCH_FLEET_OTHERS_DIR (/dev/shm): in a warehouse they
// are other machines, and on this one they must not take the scanned stations' CPU or make their
// commits wait behind their writes on the one disk. Each RabbitMQ node has BENCH_FLEET_RABBITMQ_SCHEDULERS
// (1) scheduler threads. Stations return to their own node BENCH_FLEET_FAILBACK_MS (10000) to twice that
// after it answers again (the agents' `mqtt.failbackAfterMs`; 0: they stay where they failed over).
// BENCH_FLEET_ROLLING (0) passes of a rolling restart replace the kills (rolling-restart.mjs,
// docs/mqtt.md#a-rolling-restart): half a kill period into the load, every node in turn stopped cleanly
// and started again, the next one BENCH_FLEET_ROLLING_GAP (3) s after it is back; per restart the worst
// silence of a station that was on the node (from the stop to its next notification acknowledged through
// another node), what central misses of what was committed from that stop to the next after the drain,
// and the inversions it saw meanwhile (`rollingRestarts` in the result).
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { startCentral, startFleetAgent, until } from "./fleet-procs.mjs";
import { watchDeliveries } from "./fleet-watch.mjs";
import { BENCH_DIR, niceSelf, summary } from "./lib.mjs";
import { hasMosquitto, mosquittoAsCluster } from "./mosquitto.mjs";
import { hasNats, startNatsCluster } from "./nats-cluster.mjs";
import { usage } from "./proc-usage.mjs";
import { ptyPair } from "./pty.mjs";
import { hasRabbitmq, startRabbitCluster } from "./rabbitmq-cluster.mjs";
import { rollingRestart, silences, simulatedSilence } from "./rolling-restart.mjs";
import { setUp, stationYaml } from "./scan-light.bench.mjs";
import { startSimFleet } from "./sim-fleet.mjs";

const env = (k, d) => Number(process.env[`BENCH_FLEET_${k}`] ?? d);
const CFG = {
  broker: process.env.BENCH_FLEET_BROKER,
  agents: env("N", 3),
  simulated: env("SIM", 27),
  perStationPerSecond: env("RATE", 2),
  seconds: env("SECONDS", 150),
  killEverySeconds: env("KILL_EVERY", 60),
  downSeconds: env("DOWN", 20),
  replicas: env("REPLICAS", 2),
  partitions: env("PARTITIONS", 4),
  centralOutageSeconds: env("OUTAGE", 30),
  longDownSeconds: env("LONG_DOWN", 0),
  longDownAt: env("LONG_DOWN_AT", 1),
  outageRate: env("OUTAGE_RATE", 5),
  liveRate: env("LIVE_RATE", 0.83),
  scanned: env("SCANNED", 1),
  // a rolling restart instead of the kills (rolling-restart.mjs): this many passes over the nodes, each
  // node stopped cleanly and started, the next one stopped BENCH_FLEET_ROLLING_GAP s after it is back
  rolling: env("ROLLING", 0),
  rollingGapSeconds: env("ROLLING_GAP", 3),
  // the agents' `mqtt.failbackAfterMs` and the simulated stations' return to their own node (0: they
  // stay where they failed over, as before the return existed)
  failbackMs: env("FAILBACK_MS", 10_000),
  // each RabbitMQ node's scheduler threads (bench/rabbitmq-cluster.mjs); 2 gives a node both cores, as a
  // node of its own would have (the nodes run under SCHED_IDLE: they take only what the stations leave)
  rabbitmqSchedulers: env("RABBITMQ_SCHEDULERS", 1),
  nice: (process.env.BENCH_FLEET_NICE ?? "idle") === "idle" ? "idle" : env("NICE", 0),
  // the broker nodes' and central's files: in a warehouse they are other machines, with disks of their
  // own; on this one a folder on the station's disk would make its commits wait behind theirs
  othersDir: process.env.BENCH_FLEET_OTHERS_DIR ?? (existsSync("/dev/shm") ? "/dev/shm" : tmpdir()),
};
const SITE = "fleet";
const CATCH_UP_WINDOW_MS = 2000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const say = (text) => process.stderr.write(`bench fleet (${CFG.broker}): ${text}\n`);
const rotated = (urls, i) => [...urls.slice(i % urls.length), ...urls.slice(0, i % urls.length)];

/** The cluster, how the agents reach it and how central consumes from it (central's files in `dir`). */
async function broker(dir) {
  const parent = CFG.othersDir;
  if (CFG.broker === "rabbitmq-cluster") {
    const c = await startRabbitCluster({ nice: CFG.nice, parent, schedulers: CFG.rabbitmqSchedulers });
    return {
      cluster: c,
      victim: (k) => c.nodes[k % c.nodes.length],
      // docs/mqtt.md#rabbitmq: MQTT 3.1.1, requests at QoS 0
      agentMqtt: { protocolVersion: 4, requestQos: 0 },
      central: (i) => [
        ...["--amqp", rotated(c.amqpUrls, i).join(","), "--replica", `r${i}`],
        ...["--partitions", String(CFG.partitions), "--site", SITE, "--state", join(dir, "central.db")],
      ],
    };
  }
  if (CFG.broker === "mosquitto") {
    // one node, no cluster: each kill is of it, and every station waits for its return
    const c = await mosquittoAsCluster(dir, { nice: CFG.nice });
    return {
      cluster: c,
      victim: () => c.nodes[0],
      agentMqtt: {},
      central: (i) => [
        ...["--url", c.mqttUrls[0], "--instance", String(i), "--instances", String(CFG.replicas)],
        ...["--site", SITE, "--state", join(dir, `central-${i}.db`)],
      ],
    };
  }
  const c = await startNatsCluster({ nice: CFG.nice, parent });
  return {
    cluster: c,
    // the leader of the stream NATS keeps MQTT QoS 1 messages in: where a kill costs the most
    victim: async (k) => (await c.streamLeader("$MQTT_msgs")) ?? c.nodes[k % c.nodes.length],
    // docs/mqtt.md#nats: MQTT 3.1.1; requests at QoS 0 (a QoS 1 subscription is a JetStream consumer)
    agentMqtt: { protocolVersion: 4, requestQos: Number(process.env.BENCH_FLEET_REQUEST_QOS ?? 0) },
    central: (i) => [
      ...["--url", rotated(c.mqttUrls, i).join(","), "--protocol-version", "4"],
      ...["--instance", String(i), "--instances", String(CFG.replicas)],
      ...["--site", SITE, "--state", join(dir, `central-${i}.db`)],
    ],
  };
}

/** Every station's newest seq now: real agents from their database, simulated ones from their process. */
async function lastSeqs(agents, sims) {
  const report = await sims.report();
  return new Map([
    ...agents.map((a) => [a.station, a.lastSeq()]),
    ...report.map((s) => [s.station, s.lastSeq]),
  ]);
}

/** Time until central has, of every station, everything in `targets`. */
function caughtUp(watch, targets, timeoutMs) {
  return until(
    "central to catch up",
    () => [...targets].every(([s, seq]) => watch.last(s) >= seq),
    timeoutMs,
  );
}

/** The node an agent is connected to, from its `/readyz` (the `mqtt` check names it); its own if unknown. */
async function nodeOf(a) {
  try {
    const r = await fetch(`http://127.0.0.1:${a.port}/readyz`);
    const detail = (await r.json()).checks?.mqtt?.detail;
    return typeof detail === "string" && detail.includes(" connected") ? detail.split(" ")[0] : a.url;
  } catch {
    return a.url;
  }
}

/** The node an agent is connected to right now, from its `/readyz`; undefined while it is not connected. */
async function connectedNode(a) {
  try {
    const r = await fetch(`http://127.0.0.1:${a.port}/readyz`);
    const detail = (await r.json()).checks?.mqtt?.detail;
    return typeof detail === "string" && detail.includes(" connected") ? detail.split(" ")[0] : undefined;
  } catch {
    return undefined;
  }
}

/** Of every station, how many of its notifications central has with a seq in (from, to]. */
function missingBetween(watch, from, to) {
  let missing = 0;
  for (const [station, last] of to) {
    const ids = watch.stations.get(station)?.ids;
    // the watch keeps notification ids: <site>.<ppsId>.<seq>
    const stem = station.replace("/", ".");
    for (let seq = (from.get(station) ?? 0) + 1; seq <= last; seq++)
      if (!ids?.has(`${stem}.${seq}`)) missing++;
  }
  return missing;
}

/**
 * A rolling restart under load (rolling-restart.mjs, docs/mqtt.md#a-rolling-restart), CFG.rolling passes:
 * per restart, the worst silence of a station that was on the node (from the stop to its next
 * notification acknowledged through another node: real agents by their delivery cursor, simulated ones by
 * their connections), and, once the run is drained (`settle`), what central misses of what the stations
 * committed from the stop until the next one, and the inversions it saw meanwhile.
 */
async function rolling(nodes, agents, sims, watch) {
  const inversions = () => [...watch.stations.values()].reduce((n, s) => n + s.reordered, 0);
  const measure = async (node) => {
    const agentNodes = await Promise.all(agents.map(connectedNode));
    const onNode = agents.filter((_, i) => agentNodes[i] === node.mqttUrl);
    const simsOnNode = new Set(
      (await sims.report()).filter((s) => s.connects.at(-1)?.url === node.mqttUrl).map((s) => s.station),
    );
    const committedBefore = await lastSeqs(agents, sims);
    const inversionsBefore = inversions();
    return async (at) => {
      const agentMs = await silences(
        onNode.map((a) => ({
          station: a.station,
          node: () => connectedNode(a),
          acked: () => a.deliveredSeq(),
        })),
        node.mqttUrl,
        at,
        { timeoutMs: 60_000, everyMs: 50 },
      );
      // the simulated stations keep their connections: read once the node is back and the gap has passed
      return { onNode, simsOnNode, agentMs, committedBefore, inversionsBefore };
    };
  };
  // a RabbitMQ node stopped cleanly waits for its peers' tables when it starts: on a loaded machine that
  // can take minutes, which is reported (nodeBackMs), not fatal
  const restartable = nodes.map((n) => ({ ...n, start: () => n.start(600_000) }));
  const restarts = [];
  for (let pass = 0; pass < CFG.rolling; pass++)
    restarts.push(...(await rollingRestart(restartable, { gapMs: CFG.rollingGapSeconds * 1000, measure })));
  const report = await sims.report();
  const committedAfter = await lastSeqs(agents, sims);
  return {
    restarts: restarts.map((r, k) => {
      const sim = report
        .filter((s) => r.simsOnNode.has(s.station))
        .map((s) => ({ station: s.station, ms: simulatedSilence(s.connects, r.at) }));
      const all = [...r.agentMs, ...sim];
      const ms = all.map((x) => x.ms ?? Number.POSITIVE_INFINITY);
      return {
        node: r.node,
        stoppedMs: r.stoppedMs,
        nodeBackMs: r.backMs,
        stationsOnNode: all.length,
        agentsOnNode: r.onNode.length,
        worstSilenceMs: all.length ? Math.max(...ms) : null,
        agentSilenceMs: r.agentMs.map((x) => x.ms),
        simulatedSilenceMs: summary(sim.filter((x) => x.ms !== null).map((x) => x.ms)),
        notPublishingAgain: all.filter((x) => x.ms === null).length,
        inversions: (restarts[k + 1]?.inversionsBefore ?? inversions()) - r.inversionsBefore,
        window: [r.committedBefore, restarts[k + 1]?.committedBefore ?? committedAfter],
      };
    }),
    /** Once the run is drained: what central misses of each restart's window. */
    settle: (rs) =>
      rs.map(({ window: [from, to], ...r }) => ({ ...r, missing: missingBetween(watch, from, to) })),
  };
}

/**
 * One node SIGKILLed under load: each real agent's failover (its delivery cursor moving on), catch-up.
 * The stations measured are those connected to that node when it was killed (after a failover a station
 * may be on another node than its own until it returns: docs/mqtt.md#a-clustered-broker).
 */
async function kill(node, agents, sims, watch, downSeconds, alone) {
  const nodes = await Promise.all(agents.map(nodeOf));
  const onNode = agents.filter((_, i) => nodes[i] === node.mqttUrl);
  const simsOnNode = new Set(
    (await sims.report()).filter((s) => s.connects.at(-1)?.url === node.mqttUrl).map((s) => s.station),
  );
  const marks = onNode.map((a) => a.deliveredSeq());
  const at = Date.now();
  await node.kill();
  const back = onNode.map(() => null);
  const failover = until(
    "the agents of the killed node publishing again",
    () => {
      onNode.forEach((a, i) => {
        if (back[i] === null && a.deliveredSeq() > marks[i]) back[i] = Date.now() - at;
      });
      return back.every((b) => b !== null);
    },
    60_000,
  ).catch(() => null);
  // catch-up: from the kill until central has everything the stations committed in the 2 s after it
  await sleep(Math.max(0, at + CATCH_UP_WINDOW_MS - Date.now()));
  const targets = await lastSeqs(agents, sims);
  const catchUp = caughtUp(watch, targets, 120_000)
    .then(() => Date.now() - at)
    .catch(() => null);
  await sleep(downSeconds * 1000);
  const restart = Date.now();
  // a node that does not come back in time (NATS: JetStream not current again) is reported, not fatal
  const restartError = await node.start().then(
    () => null,
    (e) => e.message,
  );
  const restartMs = restartError === null ? Date.now() - restart : null;
  await failover;
  const catchUpMs = await catchUp;
  // `alone`: a broker without a cluster (Mosquitto), where the next connection is to the node come back
  const report = (await sims.report()).filter((s) => simsOnNode.has(s.station));
  const simConnects = report
    .map((s) => s.connects.find((c) => c.at > at && (alone || c.url !== node.mqttUrl))?.at)
    .filter((t) => t !== undefined);
  // publishing again: the first acknowledgement on a connection made after the kill (the agents' own
  // measure), of every station that made one
  const simAcks = report
    .filter((s) => s.connects.some((c) => c.at > at))
    .map((s) => s.connects.find((c) => c.at > at && c.firstAckAt !== undefined)?.firstAckAt ?? null);
  const backAt = restart - at + (restartMs ?? 0);
  // where a simulated station's failover went: from its first connection after the kill (CONNACK) to
  // the SUBACK, the PUBACK of ONLINE and of its first notification there
  const firstAfter = report.map((s) => s.connects.find((c) => c.at > at)).filter((c) => c !== undefined);
  const afterConnect = (k) => summary(firstAfter.filter((c) => c[k] !== undefined).map((c) => c[k] - c.at));
  return {
    node: node.name,
    downSeconds,
    agentsOnNode: onNode.map((a) => a.station),
    agentFailoverMs: back,
    simulatedFailoverMs: summary(simConnects.map((t) => t - at)),
    simulatedPublishingAgainMs: summary(simAcks.filter((t) => t !== null).map((t) => t - at)),
    simulatedNotPublishingAgain: simAcks.filter((t) => t === null).length,
    simulatedAfterConnectMs: {
      suback: afterConnect("subackAt"),
      online: afterConnect("onlineAckAt"),
      firstAck: afterConnect("firstAckAt"),
    },
    ...(alone ? { agentsAfterReturnMs: back.map((b) => (b === null ? null : Math.max(0, b - backAt))) } : {}),
    catchUpMs,
    restartMs,
    /** From the kill until the node was back (started and ready). */
    nodeBackMs: restartMs === null ? null : backAt,
    ...(restartError === null ? {} : { restartError }),
  };
}

/** Load off; everything committed must be at central: missing, inversions and duplicates over the run. */
async function drain(agents, sims, watch) {
  for (const a of agents) a.send("halt");
  sims.send("halt");
  await sleep(1000);
  const committed = await lastSeqs(agents, sims);
  const drainedMs = await caughtUp(watch, committed, 120_000).catch(() => null);
  const stations = [...committed.keys()].map((s) => watch.stations.get(s));
  const sum = (f) => stations.reduce((n, s) => n + (s ? f(s) : 0), 0);
  const total = [...committed.values()].reduce((n, c) => n + c, 0);
  const acked = await sims.report();
  return {
    drainedMs,
    committed: total,
    acknowledgedByStations:
      agents.reduce((n, a) => n + a.deliveredSeq(), 0) + acked.reduce((n, s) => n + s.acked, 0),
    deliveredToCentral: watch.delivered(),
    missingAfterRepair: total - sum((s) => s.ids.size),
    inversions: sum((s) => s.reordered),
    duplicates: sum((s) => s.duplicates),
  };
}

/** How many of each log event a replica wrote. */
function eventCounts(events) {
  const counts = {};
  for (const e of events) counts[e.event] = (counts[e.event] ?? 0) + 1;
  return counts;
}

/** Central's replicas down while the stations keep producing; then the time the backlog takes to drain. */
async function centralOutage(agents, sims, central, startReplicas, phase) {
  for (const c of central.splice(0)) await c.stop();
  const produce = (rate) => {
    for (const a of agents) a.send(`go ${rate}`);
    sims.send(`go ${rate}`);
  };
  phase("outage");
  produce(CFG.outageRate);
  const before = await lastSeqs(agents, sims);
  await sleep(CFG.centralOutageSeconds * 1000);
  const watch = watchDeliveries();
  const backlogTargets = await lastSeqs(agents, sims);
  const backlog = [...backlogTargets].reduce((n, [s, seq]) => n + seq - (before.get(s) ?? 0), 0);
  phase("drain");
  produce(CFG.liveRate);
  const t0 = Date.now();
  central.push(...startReplicas(watch));
  const drainMs = await caughtUp(watch, backlogTargets, 600_000)
    .then(() => Date.now() - t0)
    .catch(() => null);
  phase(null);
  for (const a of agents) a.send("halt");
  sims.send("halt");
  // the replicas' own counts as they stop (main.ts logs `stopped` with them): replay pages asked of
  // the stations while the backlog drained are work the stations did for it
  const stopped = central.splice(0);
  for (const c of stopped) await c.stop();
  const replicaStats = stopped.map((c) => c.events.findLast((e) => e.event === "stopped") ?? null);
  const eventsDuringDrain = stopped.map((c) => eventCounts(c.events));
  const sum = (k) => replicaStats.reduce((n, e) => n + (e?.[k] ?? 0), 0);
  return {
    outageSeconds: CFG.centralOutageSeconds,
    perStationPerSecond: CFG.outageRate,
    backlog,
    drainMs,
    drainedPerSecond: drainMs ? Math.round((backlog / drainMs) * 1000) : null,
    replayRequestsDuringDrain: sum("replayRequests"),
    duplicatesDroppedDuringDrain: sum("duplicates"),
    eventsDuringDrain,
  };
}

/**
 * The operator's scanner on each of the first `count` real agents, driven by servers/scan-probe.mjs: a
 * scan every 100 ms until stopped, each scan → light counted in the phase it fell in (`phase(name)`;
 * null: not counted).
 */
async function stationsAtWork(dir, count) {
  const seats = [];
  for (let i = 0; i < count; i++) {
    const scannerPty = await ptyPair(`scanner-${i}`);
    const ptlPty = await ptyPair(`ptl-${i}`);
    const stationFile = join(dir, `station-${i}.yaml`);
    writeFileSync(stationFile, stationYaml(scannerPty.agent, ptlPty.agent));
    seats.push({ scannerPty, ptlPty, stationFile });
  }
  const windows = [];
  let probe = null;
  let lines = null;
  const nextLine = () => new Promise((ok) => lines.once("line", ok));
  return {
    stationFile: (i) => seats[i]?.stationFile,
    /** Once the agents run: stock and a pick at each (setUp), then the probe signs in and scans. */
    async start(agents) {
      for (const [i] of seats.entries()) await setUp(`http://127.0.0.1:${agents[i].port}`);
      const devices = seats.map((s) => ({ scanner: s.scannerPty.device, ptl: s.ptlPty.device }));
      probe = spawn(
        process.execPath,
        [join(BENCH_DIR, "servers", "scan-probe.mjs"), JSON.stringify(devices)],
        {
          stdio: ["pipe", "pipe", "inherit"],
        },
      );
      lines = createInterface({ input: probe.stdout });
      await nextLine(); // READY
      probe.stdin.write("start\n");
      await nextLine(); // STARTED
    },
    phase(name) {
      const now = Date.now();
      const open = windows.at(-1);
      if (open && open.to === undefined) open.to = now;
      if (name) windows.push({ name, from: now });
    },
    /** Scan → light per phase, over every scanned agent. */
    async stop() {
      const runs = [];
      if (probe && probe.exitCode === null) {
        const exited = new Promise((ok) => probe.once("exit", ok));
        lines.on("line", (line) => runs.push(JSON.parse(line)));
        probe.stdin.write("stop\n");
        await exited;
      }
      for (const s of seats) {
        await s.scannerPty.close();
        await s.ptlPty.close();
      }
      const out = {};
      for (const w of windows) {
        const inside = (t) => t >= w.from && t < (w.to ?? Number.POSITIVE_INFINITY);
        const ms = runs.flatMap((r) => r.ms.filter((_, k) => inside(r.at[k])));
        out[w.name] = [...(out[w.name] ?? []), ...ms];
      }
      const lost = runs.reduce((n, r) => n + r.lost, 0);
      return { lost, ...Object.fromEntries(Object.entries(out).map(([k, v]) => [k, summary(v)])) };
    },
  };
}

export async function runCluster() {
  if (CFG.broker === "rabbitmq-cluster" && !hasRabbitmq())
    return { skipped: "rabbitmq-server is not installed" };
  if (CFG.broker === "nats-cluster" && !hasNats()) return { skipped: "nats-server is not installed" };
  if (CFG.broker === "mosquitto" && !hasMosquitto()) return { skipped: "mosquitto is not installed" };
  const dir = mkdtempSync(join(tmpdir(), "pps-edge-bench-cluster-"));
  const others = mkdtempSync(join(CFG.othersDir, "pps-edge-bench-central-"));
  const b = await broker(others).catch((e) => {
    for (const d of [dir, others]) rmSync(d, { recursive: true, force: true });
    throw e;
  });
  const urls = b.cluster.mqttUrls;
  const watch = watchDeliveries();
  const startReplicas = (w) =>
    Array.from({ length: CFG.replicas }, (_, i) => startCentral(b.central(i), w, { nice: CFG.nice }));
  const central = startReplicas(watch);
  const agents = [];
  let sims;
  const scans = await stationsAtWork(dir, Math.min(CFG.scanned, CFG.agents));
  let scanToLight = null;
  try {
    for (let i = 0; i < CFG.agents; i++) {
      const [url, ...failoverUrls] = rotated(urls, i);
      const mqtt = { ...b.agentMqtt, failoverUrls, failbackAfterMs: CFG.failbackMs };
      const stationFile = scans.stationFile(i);
      const nice = stationFile ? 0 : CFG.nice;
      const a = await startFleetAgent(dir, url, SITE, String(i + 1), mqtt, { stationFile, nice });
      agents.push({ ...a, url });
    }
    sims = await startSimFleet({
      urls,
      site: SITE,
      first: 1000,
      count: CFG.simulated,
      failbackAfterMs: CFG.failbackMs,
      nice: CFG.nice,
    });
    await scans.start(agents);
    // from here this process is central's side too (it reads every delivery): niced like the rest, now
    // that the scanned agents and their scanner have started at the default niceness
    niceSelf(CFG.nice);
    await sleep(3000);
    say(
      `${CFG.agents} agents, ${CFG.simulated} simulated, ${CFG.replicas} replicas; load for ${CFG.seconds} s`,
    );
    const t0 = Date.now();
    scans.phase("load and kills");
    for (const a of agents) a.send(`go ${CFG.perStationPerSecond}`);
    sims.send(`go ${CFG.perStationPerSecond}`);
    const kills = [];
    const every = CFG.killEverySeconds * 1000;
    let rolled = null;
    if (CFG.rolling > 0) {
      await sleep(every / 2);
      say(`rolling restart of ${b.cluster.nodes.map((n) => n.name)}, ${CFG.rolling} pass(es)`);
      rolled = await rolling(b.cluster.nodes, agents, sims, watch);
      for (const r of rolled.restarts) say(JSON.stringify({ ...r, window: undefined }));
    }
    // a node back from a long absence gets half a period before the next kill
    for (let k = 0, at = t0 + every / 2; !rolled && at + every / 2 <= t0 + CFG.seconds * 1000; k++) {
      await sleep(Math.max(0, at - Date.now()));
      const node = await b.victim(k);
      say(`SIGKILL ${node.name}`);
      const down = k === CFG.longDownAt && CFG.longDownSeconds > 0 ? CFG.longDownSeconds : CFG.downSeconds;
      kills.push(await kill(node, agents, sims, watch, down, b.cluster.nodes.length === 1));
      say(JSON.stringify(kills.at(-1)));
      at = Math.max(at + every, Date.now() + every / 2);
    }
    await sleep(Math.max(0, t0 + CFG.seconds * 1000 - Date.now()));
    scans.phase(null);
    const total = await drain(agents, sims, watch);
    say(JSON.stringify(total));
    const rollingRestarts = rolled ? rolled.settle(rolled.restarts) : null;
    if (rollingRestarts) say(JSON.stringify(rollingRestarts));
    const latencyMs = summary(watch.latencies.map((l) => l.ms));
    // what central's replicas logged (connected, subscribed, subscribe_refused, silent, gap, replay_failed…)
    const centralEvents = central.map((c) => eventCounts(c.events));
    const processes = {
      agents: agents.map((a) => usage(a.pid)),
      simulatedStations: usage(sims.pid),
      central: central.map((c) => usage(c.pid)),
      brokerNodes: b.cluster.nodes.map((n) => ({ node: n.name, ...usage(n.pid()) })),
    };
    const outage = await centralOutage(agents, sims, central, startReplicas, scans.phase);
    scanToLight = await scans.stop();
    say(JSON.stringify({ ...outage, scanToLight }));
    return {
      config: CFG,
      kills,
      ...(rollingRestarts ? { rollingRestarts } : {}),
      total,
      latencyMs,
      centralEvents,
      processes,
      centralOutage: outage,
      scanToLightMs: scanToLight,
      met: {
        ...met(kills, total, outage, scanToLight, b.cluster.nodes.length === 1),
        ...(rollingRestarts ? metRolling(rollingRestarts) : {}),
      },
    };
  } catch (e) {
    // said before the clean-up, which may fail in turn and hide it
    say(`failed: ${e.stack ?? e}`);
    throw e;
  } finally {
    if (scanToLight === null) await scans.stop().catch(() => null);
    for (const c of central) await c.stop();
    await Promise.all(agents.map((a) => a.stop()));
    await sims?.stop();
    await b.cluster.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(others, { recursive: true, force: true });
  }
}

/** The slowest simulated station back to publishing after a kill; null if one never was. */
function simulatedWorst(k) {
  if (k.simulatedNotPublishingAgain > 0) return null;
  return k.simulatedPublishingAgainMs.n === 0 ? 0 : k.simulatedPublishingAgainMs.max;
}

/** The targets; on one broker (`alone`) failover and catch-up count from the node's return. */
function met(kills, total, outage, scanToLight, alone) {
  const worst = (f) => Math.max(...kills.flatMap(f).map((v) => (v === null ? Number.POSITIVE_INFINITY : v)));
  const sinceReturn = (k) =>
    k.catchUpMs === null || k.nodeBackMs === null ? null : k.catchUpMs - k.nodeBackMs;
  return {
    "0 missing after repair": total.missingAfterRepair === 0,
    "0 per-station inversions": total.inversions === 0,
    ...(kills.length === 0
      ? {}
      : alone
        ? {
            "every real agent publishing again within 5 s of the broker's return":
              worst((k) => k.agentsAfterReturnMs) <= 5000,
            "catch-up ≤ 10 s after the broker's return": worst((k) => [sinceReturn(k)]) <= 10_000,
          }
        : {
            "every real agent publishing again within 5 s of its node's death":
              worst((k) => k.agentFailoverMs) <= 5000,
            "every simulated station that lost its node publishing again within 5 s":
              worst((k) => [simulatedWorst(k)]) <= 5000,
            "catch-up ≤ 10 s after each kill": worst((k) => [k.catchUpMs]) <= 10_000,
          }),
    "central's backlog drained in < 5 min": outage.drainMs !== null && outage.drainMs < 300_000,
    ...(scanToLight?.drain
      ? { "scan → light p99 < 20 ms during the drain": scanToLight.drain.p99 < 20 }
      : {}),
  };
}

/** The rolling restart's targets (docs/mqtt.md#a-rolling-restart). */
function metRolling(restarts) {
  return {
    "rolling restart: every station of each stopped node publishing again within 5 s": restarts.every(
      (r) => r.worstSilenceMs !== null && r.worstSilenceMs <= 5000,
    ),
    "rolling restart: 0 missing, 0 inversions": restarts.every((r) => r.missing === 0 && r.inversions === 0),
  };
}

/** The figures run.mjs compares between runs of the same broker (compare.mjs). */
export function clusterFigures(r) {
  const silences = (r.rollingRestarts ?? []).map((x) => x.worstSilenceMs).filter((v) => v !== null);
  const failovers = r.kills.flatMap((k) => k.agentFailoverMs).filter((v) => v !== null);
  const catchUps = r.kills.map((k) => k.catchUpMs).filter((v) => v !== null);
  return {
    "missing after repair": { value: r.total.missingAfterRepair, better: "lower" },
    ...(r.rollingRestarts
      ? { "rolling restart worst silence ms": { value: Math.max(...silences), better: "lower" } }
      : {}),
    "agent failover max ms": { value: failovers.length ? Math.max(...failovers) : null, better: "lower" },
    "catch-up max ms": { value: catchUps.length ? Math.max(...catchUps) : null, better: "lower" },
    "latency p99 ms": { value: r.latencyMs.p99, better: "lower" },
    "central backlog drain ms": { value: r.centralOutage.drainMs, better: "lower" },
    "scan → light p99 ms during the drain": { value: r.scanToLightMs?.drain?.p99 ?? null, better: "lower" },
  };
}
