/**
 * A fleet against real Mosquitto without persistence: four agents (each with its own data folder) under
 * load, the broker restarted in the middle, and the reference consumer (examples/central-consumer/)
 * ending with every notification of every station, in order, none delivered twice; gaps left by the
 * restart (notifications the broker acknowledged and lost, or published before the consumer had
 * subscribed again) are repaired with `request/replay_notifications` (docs/mqtt.md, "Gaps and the
 * high-water mark"). Then the same with two consumer instances sharing the stations by hash, and a
 * consumer restart that resumes from its stored positions without delivering anything again.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  type Consumer,
  type Delivery,
  startConsumer,
} from "../../../examples/central-consumer/src/consumer.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { deadline } from "../../support/deadline.js";
import { committed, FAST, notify } from "../../support/sync/agent.js";
import { hasMosquitto, startMosquitto, type TestBroker } from "../../support/sync/brokers.js";

const SITE = "dc1";
const STATIONS = 4;
/** Notifications per station, and how many rounds they come in (each round: one per station). */
const PER_STATION = 200;
const tick = () => new Promise<void>((ok) => setTimeout(ok, 2));

let broker: TestBroker | undefined;
let other: TestBroker | undefined;
let agents: TestAgent[] = [];
let consumers: Consumer[] = [];
let dir: string | undefined;
afterEach(async () => {
  for (const c of consumers.splice(0)) await c.stop();
  for (const a of agents.splice(0)) await a.close();
  await broker?.close();
  await other?.close();
  broker = undefined;
  other = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** `failover`: the other nodes of a cluster (mqtt.failoverUrls). */
async function fleet(b: TestBroker, failover: TestBroker[] = []): Promise<TestAgent[]> {
  const started: TestAgent[] = [];
  const failoverUrls = failover.map((f) => f.url);
  for (let i = 1; i <= STATIONS; i++)
    started.push(
      await startTestAgent(
        {
          site: SITE,
          ppsId: String(i),
          mqtt: { url: b.url, protocolVersion: b.protocolVersion, failoverUrls, ...FAST },
        },
        // listening, as agentOn does: the sync starts with the listener
        { listen: true },
      ),
    );
  return started;
}

/** A consumer whose sink records what it was handed, per station, in the order handed. */
function consumer(
  b: TestBroker | TestBroker[],
  state: string,
  seen: Delivery[],
  part = { instance: 0, instances: 1 },
) {
  const c = startConsumer({
    // several: a cluster's nodes, comma-separated as on the command line
    url: [b]
      .flat()
      .map((n) => n.url)
      .join(","),
    site: SITE,
    statePath: join(dir as string, state),
    sink: (batch) => seen.push(...batch),
    ...part,
    stream: { gapGraceMs: 300, markGraceMs: 2500 },
    replayTimeoutMs: 2000,
    // FLEET_LOG=1 prints the consumer's events (gaps, replays) while the test runs
    log: (e, f) => process.env.FLEET_LOG && console.log(e, JSON.stringify(f)),
  });
  consumers.push(c);
  return c;
}

/** Load on every station, with the broker restarted (no persistence: sessions and messages lost) midway. */
async function loadWithRestart(b: TestBroker, from: number, to: number): Promise<void> {
  const restartAt = from + Math.floor((to - from) / 3);
  for (let i = from; i <= to; i++) {
    for (const a of agents) notify(a, "order_information", { externalServiceRequestId: `ORD-${i}` });
    await tick();
    if (i === restartAt) {
      await b.stop();
      await b.start();
    }
  }
}

/** Every station's committed notifications, byte for byte and in order, and nothing handed twice. */
async function expectComplete(handed: () => Delivery[]): Promise<void> {
  // agents[i] is station `dc1/<i + 1>`
  const handedOf = (i: number) => handed().filter((d) => d.station === `${SITE}/${i + 1}`);
  await expect
    .poll(() => agents.map((_, i) => handedOf(i).length), { timeout: deadline(30_000), interval: 200 })
    .toEqual(agents.map((a) => a.agent.services.repos.outbox.lastSeq()));
  agents.forEach((a, i) => {
    expect(handedOf(i).map((d) => d.payload)).toEqual(committed(a));
  });
  const ids = handed().map((d) => (JSON.parse(d.payload) as { notification_id: string }).notification_id);
  expect(new Set(ids).size).toBe(ids.length);
}

describe.skipIf(!hasMosquitto)("a fleet through a broker restart to the reference consumer", () => {
  it(
    "one consumer gets every notification of every station, in order, once; a restart of it resumes",
    async () => {
      dir = mkdtempSync(join(tmpdir(), "pps-edge-fleet-"));
      broker = await startMosquitto({ persistence: false });
      const b = broker;
      const seen: Delivery[] = [];
      let c = consumer(b, "central.db", seen);
      agents = await fleet(b);
      await loadWithRestart(b, 1, PER_STATION);
      await expectComplete(() => seen);

      // The consumer stops and comes back with its positions: only what is new is handed over.
      await c.stop();
      consumers = [];
      for (let i = PER_STATION + 1; i <= PER_STATION + 50; i++)
        for (const a of agents) notify(a, "bin_complete", { i });
      c = consumer(b, "central.db", seen);
      await expectComplete(() => seen);
      expect(c.stats().delivered).toBe(50 * STATIONS);
    },
    deadline(60_000),
  );

  it(
    "two instances share the stations by hash: each station on one instance, in order, once",
    async () => {
      dir = mkdtempSync(join(tmpdir(), "pps-edge-fleet-"));
      broker = await startMosquitto({ persistence: false });
      const b = broker;
      const first: Delivery[] = [];
      const second: Delivery[] = [];
      consumer(b, "central-0.db", first, { instance: 0, instances: 2 });
      consumer(b, "central-1.db", second, { instance: 1, instances: 2 });
      agents = await fleet(b);
      await loadWithRestart(b, 1, PER_STATION);
      await expectComplete(() => [...first, ...second]);
      const stationsOf = (seen: Delivery[]) => new Set(seen.map((d) => d.station));
      // dc1/1 and dc1/3 hash to instance 1, dc1/2 and dc1/4 to instance 0 (FNV-1a mod 2)
      expect([...stationsOf(first)].sort()).toEqual(["dc1/2", "dc1/4"]);
      expect([...stationsOf(second)].sort()).toEqual(["dc1/1", "dc1/3"]);
    },
    deadline(60_000),
  );

  it(
    "given a cluster's nodes, the consumer and the stations go on through the next when theirs dies",
    async () => {
      dir = mkdtempSync(join(tmpdir(), "pps-edge-fleet-"));
      broker = await startMosquitto({ persistence: false });
      other = await startMosquitto({ persistence: false });
      const [a, b] = [broker, other];
      const seen: Delivery[] = [];
      const c = consumer([a, b], "central.db", seen);
      agents = await fleet(a, [b]);
      for (let i = 1; i <= PER_STATION; i++) {
        for (const t of agents) notify(t, "order_information", { externalServiceRequestId: `ORD-${i}` });
        await tick();
        // node A dies for good a third of the way: everything after goes through B, gaps repaired there
        if (i === Math.floor(PER_STATION / 3)) await a.stop();
      }
      await expectComplete(() => seen);
      expect(c.stats().delivered).toBe(PER_STATION * STATIONS);
    },
    deadline(60_000),
  );
});
