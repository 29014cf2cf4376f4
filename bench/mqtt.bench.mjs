// Issue "MQTT sync" benchmark: drain of a backlog of 100,000 notifications to a local Mosquitto by the
// agent (QoS 1, window of 64, delivery recorded on PUBACK at synchronous=FULL) against a bare mqtt.js
// client publishing the same payloads at QoS 1 with the same window, in the same run (interleaved
// rounds, medians). A subscriber checks that every notification arrived, in order.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import mqtt from "mqtt";
import { AGENT_NODE_FLAGS, BENCH_DIR } from "./lib.mjs";
import { MOSQUITTO, startMosquitto } from "./mosquitto.mjs";
import { seedOutbox } from "./seed.mjs";

const N = Number(process.env.BENCH_NOTIFICATIONS ?? 100_000);
const WINDOW = Number(process.env.BENCH_WINDOW ?? 64);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TOPIC = "ppsedge/v1/bench/1/notification";

/** An order_information envelope of a realistic size (a pick request with two lines, ~1 KB). */
function orderData(i) {
  const line = (n) => ({
    externalServiceRequestId: `ORD-${i}-L${n}`,
    state: "complete",
    expectations: {
      containers: [
        {
          products: [
            {
              productQuantity: 2,
              productAttributes: { filter_parameters: [`product_sku = 'SKU-${(i * 7 + n) % 100000}'`] },
            },
          ],
        },
      ],
    },
    actuals: {
      containers: [
        {
          state: "complete",
          containerAttributes: { location: `L-${i % 500}-${n}` },
          products: [{ productQuantity: 2, productAttributes: { package_name: "each", package_count: 1 } }],
        },
      ],
    },
  });
  return {
    type: "PICK",
    state: "complete",
    status: "PROCESSED",
    externalServiceRequestId: `ORD-${i}`,
    createdOn: "2026-11-21T10:00:00.000Z",
    serviceRequests: [line(1), line(2)],
    attributes: {
      order_options: { simple_priority: "normal" },
      execution_id: `E-${i}`,
      pps_bin_id: String((i % 8) + 1),
      pps_id: "1",
      pps_seat_name: "front",
      user_name: "operator",
    },
  };
}

/** Counts what arrives on the notification topic; `done` resolves after `n` messages. */
async function consumer(url, n) {
  const client = await mqtt.connectAsync(url, {
    clientId: `bench-sub-${Date.now()}`,
    clean: true,
    reconnectPeriod: 0,
  });
  await client.subscribeAsync(TOPIC, { qos: 1 });
  let count = 0;
  let last = 0;
  let outOfOrder = 0;
  const done = new Promise((ok, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`only ${count} of ${n} notifications arrived in 5 minutes`)),
      300_000,
    );
    client.on("message", (_topic, payload) => {
      const id = JSON.parse(payload).notification_id;
      const seq = Number(id.slice(id.lastIndexOf(".") + 1));
      if (seq !== last + 1) outOfOrder++;
      last = seq;
      if (++count === n) {
        clearTimeout(timer);
        ok();
      }
    });
  });
  return { done, result: () => ({ received: count, outOfOrder }), close: () => client.endAsync() };
}

/**
 * Both processes run with the V8 heap settings of systemd/pps-edge.service: without them V8 lets the
 * heap grow far beyond what is live while garbage is produced at this rate (see the uncapped figure).
 */
/** Both sides run with the agent's production flags (lib.mjs AGENT_NODE_FLAGS). */
export const NODE_FLAGS = AGENT_NODE_FLAGS;

function child(script, args, flags = NODE_FLAGS) {
  return new Promise((ok, fail) => {
    const c = spawn(process.execPath, [...flags, join(BENCH_DIR, "servers", script), ...args], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    c.stdout.on("data", (d) => {
      out += d;
    });
    c.once("exit", (code) => {
      const m = /DONE (.*)\n/.exec(out);
      if (m) ok(JSON.parse(m[1]));
      else fail(new Error(`${script} exited with ${code}: ${out}`));
    });
  });
}

/** One drain with a subscriber counting what arrives; the outbox is made undelivered again first. */
async function measure(broker, dir, who, flags) {
  const db = new Database(join(dir, "data", "pps-edge.db"));
  db.prepare("UPDATE outbox SET delivered_at = NULL").run();
  db.prepare("DELETE FROM settings WHERE key = 'mqtt.deliveredSeq'").run();
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  const sub = await consumer(broker.url, N);
  const r =
    who === "agent"
      ? await child("mqtt-drain.mjs", [join(dir, "data"), broker.url, String(WINDOW)], flags)
      : await child(
          "mqtt-bare.mjs",
          [join(dir, "data", "pps-edge.db"), broker.url, String(WINDOW), TOPIC],
          flags,
        );
  await sub.done;
  const seen = sub.result();
  await sub.close();
  return {
    perSecond: Math.round(N / r.seconds),
    seconds: Math.round(r.seconds * 100) / 100,
    peakRssMb: r.rssMb,
    ...seen,
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run() {
  if (!existsSync(MOSQUITTO)) return { skipped: `${MOSQUITTO} is not installed` };
  const dir = mkdtempSync(join(tmpdir(), "pps-edge-bench-mqtt-"));
  const broker = await startMosquitto(dir);
  try {
    const seeded = await seedOutbox(join(dir, "data"), N, "order_information", orderData);
    // Interleaved rounds: a machine shared with other work slows one run or another, not one side.
    const agentRuns = [];
    const bareRuns = [];
    for (let round = 0; round < ROUNDS; round++) {
      bareRuns.push(await measure(broker, dir, "bare"));
      agentRuns.push(await measure(broker, dir, "agent"));
    }
    const uncapped = await measure(broker, dir, "agent", []);
    const agentRate = median(agentRuns.map((r) => r.perSecond));
    const bareRate = median(bareRuns.map((r) => r.perSecond));
    const agentRss = Math.max(...agentRuns.map((r) => r.peakRssMb));
    const ratio = Math.round((agentRate / bareRate) * 100) / 100;
    const complete = agentRuns.every((r) => r.received === N && r.outOfOrder === 0);
    return {
      config: {
        notifications: N,
        window: WINDOW,
        qos: 1,
        rounds: ROUNDS,
        nodeFlags: NODE_FLAGS.join(" "),
        broker: "mosquitto (local)",
        synchronous: "FULL",
      },
      seed: seeded,
      agent: { perSecondMedian: agentRate, peakRssMb: agentRss, runs: agentRuns },
      bareClient: {
        perSecondMedian: bareRate,
        peakRssMb: Math.max(...bareRuns.map((r) => r.peakRssMb)),
        runs: bareRuns,
      },
      ratioToBare: ratio,
      agentWithoutHeapFlags: uncapped,
      targets: {
        "agent >= 10,000 notifications/s": agentRate >= 10_000,
        "agent >= 0.8x bare client": ratio >= 0.8,
        "agent peak RSS < 150 MB": agentRss < 150,
        "every run: all received, in order": complete,
      },
    };
  } finally {
    await broker.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The figures run.mjs compares between runs (compare.mjs). */
export function figures(r) {
  if (r.skipped) return {};
  return {
    "agent notifications/s": { value: r.agent.perSecondMedian, better: "higher" },
    "agent ÷ bare client": { value: r.ratioToBare, better: "higher" },
    "agent peak RSS MB": { value: r.agent.peakRssMb, better: "lower" },
    "bare client notifications/s": { value: r.bareClient.perSecondMedian, better: "higher", reference: true },
  };
}
