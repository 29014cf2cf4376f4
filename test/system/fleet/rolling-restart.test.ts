/**
 * A rolling restart (docs/mqtt.md#a-rolling-restart): every node of the central broker stopped cleanly
 * and started again in turn, the next one stopped a few seconds after it is back, while real agents (the
 * product's reconnect steps and return to their own node) and simulated stations (bench/sim-station.mjs)
 * publish. At each stop, every station that was on the stopped node publishes again through another
 * node within 5 s; at the end central has every notification of every station, byte for byte, and
 * no station's in a different order. On a three-node RabbitMQ cluster (central: the reference consumer's
 * AMQP path, as test/system/fleet/rabbitmq-cluster.test.ts), and on three independent Mosquittos given
 * as `mqtt.failoverUrls`, where central holds a session on each of them
 * (docs/mqtt.md#independent-mosquittos).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import mqtt from "mqtt";
import { afterEach, describe, expect, it } from "vitest";
import { hasRabbitmq, type RabbitCluster, startRabbitCluster } from "../../../bench/rabbitmq-cluster.mjs";
import { rollingRestart, silences, simulatedSilence } from "../../../bench/rolling-restart.mjs";
import { type SimStation, simStation } from "../../../bench/sim-station.mjs";
import {
  type AmqpCentralConsumer,
  startAmqpConsumer,
} from "../../../examples/central-consumer/src/amqp-consumer.js";
import type { Delivery } from "../../../examples/central-consumer/src/stations.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { deadline } from "../../support/deadline.js";
import { audit, rotated } from "../../support/fleet.js";
import { committed, notify } from "../../support/sync/agent.js";
import { hasMosquitto, startMosquitto, type TestBroker } from "../../support/sync/brokers.js";

const SITE = "dc1";
const SIMULATED = 9;
/** One notification per station every ROUND_MS while the nodes restart. */
const ROUND_MS = 100;
/** The next node is stopped this long after the one before it is back. */
const GAP_MS = 3000;
/** The bound: publishing again within 5 s of the loss of its node. */
const BOUND_MS = 5000;
const sleep = (ms: number) => new Promise<void>((ok) => setTimeout(ok, ms));

let stopCluster: (() => Promise<void>) | undefined;
const agents: TestAgent[] = [];
let sims: SimStation[] = [];
const closers: Array<() => Promise<unknown>> = [];
let dir: string | undefined;
afterEach(async () => {
  for (const c of closers.splice(0)) await c().catch(() => {});
  for (const s of sims.splice(0)) await s.stop().catch(() => {});
  for (const a of agents.splice(0)) await a.close();
  await stopCluster?.();
  stopCluster = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
}, deadline(60_000));

interface Node {
  name: string;
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** Agents and simulated stations on `urls` (each its own node first), producing until `halt()`. */
async function fleet(urls: string[], mqttSettings: Record<string, unknown>) {
  for (let i = 0; i < urls.length; i++) {
    const [url, ...failoverUrls] = rotated(urls, i);
    // the product's reconnect steps and return to its own node: what the rolling restart is about
    agents.push(
      await startTestAgent(
        {
          site: SITE,
          ppsId: String(i + 1),
          mqtt: { url, failoverUrls, keepaliveSeconds: 5, ...mqttSettings },
        },
        { listen: true },
      ),
    );
  }
  sims = Array.from({ length: SIMULATED }, (_, i) =>
    simStation({
      urls: rotated(urls, i),
      site: SITE,
      ppsId: String(100 + i),
      protocolVersion: (mqttSettings.protocolVersion as 4 | 5 | undefined) ?? 4,
    }),
  );
  await expect
    .poll(() => sims.every((s) => s.connected()) && agents.every((a) => a.agent.sync.status().connected), {
      timeout: deadline(30_000),
    })
    .toBe(true);
  let round = 0;
  let halted = false;
  const producing = (async () => {
    let last = Date.now();
    while (!halted) {
      // the agents' clock runs as the wall clock: how long a connection lasted is what the backoff reads
      for (const a of agents) a.clock.now += Date.now() - last;
      last = Date.now();
      round++;
      for (const a of agents) notify(a, "order_information", { externalServiceRequestId: `ORD-${round}` });
      for (const s of sims) s.notify("order_information", { externalServiceRequestId: `ORD-${round}` });
      await sleep(ROUND_MS);
    }
  })();
  return {
    halt: async () => {
      halted = true;
      await producing;
    },
    /** Every station's notifications as committed, by station. */
    expected: () =>
      new Map<string, readonly string[]>([
        ...agents.map((a, i) => [`${SITE}/${i + 1}`, committed(a)] as const),
        ...sims.map((s) => [s.station, [...s.committed()]] as const),
      ]),
  };
}

/** What is measured of one node's restart: how long each station that was on it went unacknowledged. */
async function measure(node: Node) {
  const onNode = agents.filter((a) => a.agent.sync.status().url === node.url);
  const simsOnNode = sims.filter((s) => s.connected() && s.url() === node.url);
  return async (at: number) => {
    const agentMs = await silences(
      onNode.map((a) => ({
        station: `${SITE}/${agents.indexOf(a) + 1}`,
        node: () => (a.agent.sync.status().connected ? a.agent.sync.status().url : undefined),
        acked: () => a.agent.services.repos.outbox.cursor(),
      })),
      node.url,
      at,
      { timeoutMs: deadline(30_000) },
    );
    const until = Date.now() + deadline(30_000);
    while (simsOnNode.some((s) => simulatedSilence(s.connects, at) === null) && Date.now() < until)
      await sleep(100);
    const simMs = simsOnNode.map((s) => ({ station: s.station, ms: simulatedSilence(s.connects, at) }));
    return { silences: [...agentMs, ...simMs] };
  };
}

/** Every node in turn; each station of the stopped node publishing again within 5 s of its loss. */
async function restartEach(nodes: Node[]) {
  const restarts = await rollingRestart(nodes, { gapMs: GAP_MS, measure });
  for (const r of restarts) {
    const worst = Math.max(...r.silences.map((s) => s.ms ?? Number.POSITIVE_INFINITY));
    console.log(
      `${r.node}: ${r.silences.length} stations, worst silence ${worst} ms, back after ${r.backMs} ms`,
    );
  }
  expect(restarts.map((r) => r.node)).toEqual(nodes.map((n) => n.name));
  for (const r of restarts) {
    // the stopped node had stations on it: each one is measured
    expect(r.silences.length).toBeGreaterThan(0);
    for (const s of r.silences) {
      expect(s.ms, `${s.station} after ${r.node} stopped`).not.toBeNull();
      expect(s.ms as number, `${s.station} after ${r.node} stopped`).toBeLessThan(deadline(BOUND_MS));
    }
  }
}

/** Central has every notification of every station, byte for byte, each station's in order. */
async function everythingAtCentral(handed: Delivery[], expected: Map<string, readonly string[]>) {
  await expect
    .poll(() => audit(handed, expected).missing, { timeout: deadline(60_000), interval: 500 })
    .toBe(0);
  const result = audit(handed, expected);
  const total = [...expected.values()].reduce((n, p) => n + p.length, 0);
  console.log(`central: ${total} committed, ${handed.length} handed`, JSON.stringify(result));
  expect(total).toBeGreaterThan(0);
  expect(result).toMatchObject({ missing: 0, inversions: 0, wrong: 0 });
}

describe.skipIf(!hasRabbitmq())("a rolling restart of a three-node RabbitMQ cluster", () => {
  it(
    "every station publishes again within 5 s of its node's stop; central has everything in order",
    async () => {
      dir = mkdtempSync(join(tmpdir(), "pps-edge-rolling-rabbit-"));
      const c: RabbitCluster = await startRabbitCluster();
      stopCluster = () => c.stop();
      const handed: Delivery[] = [];
      for (const replica of ["a", "b"]) {
        const r: AmqpCentralConsumer = await startAmqpConsumer({
          urls: rotated(c.amqpUrls, replica === "a" ? 0 : 1),
          site: SITE,
          partitions: 4,
          replica,
          statePath: join(dir, "central.db"),
          sink: (batch) => handed.push(...batch),
          stream: { gapGraceMs: 500, markGraceMs: 3000 },
          replayTimeoutMs: 3000,
        });
        closers.push(() => r.stop());
      }
      // docs/mqtt.md#rabbitmq: MQTT 3.1.1, requests at QoS 0
      const f = await fleet(c.mqttUrls, { protocolVersion: 4, requestQos: 0 });
      await sleep(2000);
      await restartEach(
        c.nodes.map((n) => ({ name: n.name, url: n.mqttUrl, stop: n.stop, start: () => n.start() })),
      );
      await f.halt();
      await everythingAtCentral(handed, f.expected());
    },
    deadline(180_000),
  );
});

/**
 * Central's side of three independent Mosquittos: one persistent session on each (a fixed client id,
 * clean session off, QoS 1), every delivery handed in the order it arrived, whichever broker brought it.
 */
function centralOnEach(urls: string[], handed: Delivery[]) {
  const clients = urls.map((url, i) => {
    const client = mqtt.connect(url, {
      clientId: `central-${i}`,
      clean: false,
      protocolVersion: 5,
      reconnectPeriod: 100,
    });
    client.on("connect", (connack) => {
      if (!connack.sessionPresent) client.subscribe(`ppsedge/v1/${SITE}/+/notification`, { qos: 1 });
    });
    client.on("message", (topic, payload) => {
      const text = payload.toString("utf8");
      const id = (JSON.parse(text) as { notification_id: string }).notification_id;
      handed.push({
        station: topic.split("/").slice(2, 4).join("/"),
        seq: Number(id.split(".").pop()),
        payload: text,
      });
    });
    return client;
  });
  return {
    ready: () => clients.every((c) => c.connected),
    close: () => Promise.all(clients.map((c) => c.endAsync(true))),
  };
}

describe.skipIf(!hasMosquitto)("a rolling restart of three Mosquittos given as mqtt.failoverUrls", () => {
  it(
    "every station publishes again within 5 s of its broker's stop; central has everything in order",
    async () => {
      const brokers: TestBroker[] = [];
      for (let i = 0; i < 3; i++) brokers.push(await startMosquitto({ persistence: true }));
      stopCluster = async () => {
        for (const b of brokers) await b.close();
      };
      const urls = brokers.map((b) => b.url);
      const handed: Delivery[] = [];
      const central = centralOnEach(urls, handed);
      closers.push(central.close);
      await expect.poll(central.ready, { timeout: deadline(10_000) }).toBe(true);
      const f = await fleet(urls, { protocolVersion: 5 });
      await sleep(2000);
      await restartEach(
        brokers.map((b, i) => ({ name: `mosquitto-${i + 1}`, url: b.url, stop: b.stop, start: b.start })),
      );
      await f.halt();
      await everythingAtCentral(handed, f.expected());
    },
    deadline(90_000),
  );
});
