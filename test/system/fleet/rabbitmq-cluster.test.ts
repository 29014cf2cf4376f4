/**
 * A small warehouse on a three-node RabbitMQ cluster (docs/mqtt.md, "Central on a clustered broker"):
 * three real agents (MQTT 3.1.1, each on its own node, the other two as `mqtt.failoverUrls`) and 27
 * simulated stations (bench/sim-station.mjs) under load; central is the reference consumer's AMQP path
 * (examples/central-consumer/src/amqp-consumer.ts), two replicas on quorum queues with a single active
 * consumer. One node is SIGKILLed under load and started again 10 s later. Every real agent whose node
 * died publishes through another node within 5 s, and every station is back on its own node once that
 * node has answered for a while (`mqtt.failbackAfterMs`, 2 s here); at the end central has every
 * notification of every station, byte for byte, in per-station order (a gap the kill left is repaired by
 * replay).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hasRabbitmq, type RabbitCluster, startRabbitCluster } from "../../../bench/rabbitmq-cluster.mjs";
import { type SimStation, simStation } from "../../../bench/sim-station.mjs";
import {
  type AmqpCentralConsumer,
  startAmqpConsumer,
} from "../../../examples/central-consumer/src/amqp-consumer.js";
import type { Delivery } from "../../../examples/central-consumer/src/stations.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { deadline } from "../../support/deadline.js";
import { audit, rotated } from "../../support/fleet.js";
import { committed, FAST, notify } from "../../support/sync/agent.js";

const SITE = "dc1";
const SIMULATED = 27;
const PARTITIONS = 4;
/** Rounds of one notification per station, one round every ROUND_MS: 10 per station per second. */
const ROUNDS = 300;
const ROUND_MS = 100;
const KILL_AT = 100;
const DOWN_MS = 10_000;
/** How long a station's own node must answer before it returns (the default is 10 s). */
const FAILBACK_AFTER_MS = 2000;
const sleep = (ms: number) => new Promise<void>((ok) => setTimeout(ok, ms));

type Cluster = RabbitCluster;
type Sim = SimStation;
let cluster: Cluster | undefined;
const agents: TestAgent[] = [];
let sims: Sim[] = [];
const replicas: AmqpCentralConsumer[] = [];
let dir: string | undefined;
afterEach(async () => {
  for (const r of replicas.splice(0)) await r.stop().catch(() => {});
  for (const s of sims.splice(0)) await s.stop().catch(() => {});
  for (const a of agents.splice(0)) await a.close();
  await cluster?.stop();
  cluster = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
}, deadline(60_000));

describe.skipIf(!hasRabbitmq())(
  "a fleet on a three-node RabbitMQ cluster, one node SIGKILLed under load",
  () => {
    it(
      "central gets every notification in per-station order; the agents fail over within 5 s and return",
      async () => {
        dir = mkdtempSync(join(tmpdir(), "pps-edge-rabbit-fleet-"));
        cluster = await startRabbitCluster();
        const c = cluster;
        const handed: Delivery[] = [];
        for (const replica of ["a", "b"])
          replicas.push(
            await startAmqpConsumer({
              urls: rotated(c.amqpUrls, replicas.length),
              site: SITE,
              partitions: PARTITIONS,
              replica,
              statePath: join(dir, "central.db"),
              sink: (batch) => handed.push(...batch),
              stream: { gapGraceMs: 500, markGraceMs: 3000 },
              replayTimeoutMs: 3000,
              log: (e, f) => process.env.FLEET_LOG && console.log(replica, e, JSON.stringify(f)),
            }),
          );
        for (let i = 0; i < 3; i++) {
          const [url, ...failoverUrls] = rotated(c.mqttUrls, i);
          agents.push(
            await startTestAgent(
              {
                site: SITE,
                ppsId: String(i + 1),
                // QoS 0 for `request/+`, as docs/mqtt.md#rabbitmq says for a RabbitMQ cluster
                mqtt: {
                  url,
                  failoverUrls,
                  protocolVersion: 4,
                  requestQos: 0,
                  failbackAfterMs: FAILBACK_AFTER_MS,
                  ...FAST,
                },
              },
              { listen: true },
            ),
          );
        }
        sims = Array.from({ length: SIMULATED }, (_, i) =>
          simStation({
            urls: rotated(c.mqttUrls, i),
            site: SITE,
            ppsId: String(100 + i),
            failbackAfterMs: FAILBACK_AFTER_MS,
          }),
        );
        await expect.poll(() => sims.every((s) => s.connected()), { timeout: deadline(20_000) }).toBe(true);

        const victim = c.nodes[1] as Cluster["nodes"][number];
        let killedAt = 0;
        let restarting: Promise<void> | undefined;
        let markAtKill: number[] = [];
        const backOn: Array<number | null> = agents.map(() => null);
        for (let round = 1; round <= ROUNDS; round++) {
          const t0 = Date.now();
          for (const a of agents)
            notify(a, "order_information", { externalServiceRequestId: `ORD-${round}` });
          for (const s of sims) s.notify("order_information", { externalServiceRequestId: `ORD-${round}` });
          if (round === KILL_AT) {
            markAtKill = agents.map((a) => a.agent.services.repos.outbox.cursor());
            await victim.kill();
            killedAt = Date.now();
          }
          if (killedAt && Date.now() - killedAt >= DOWN_MS && !restarting) restarting = victim.start();
          // an agent is back once it is connected to another node and its delivery mark moves on
          agents.forEach((a, i) => {
            const st = a.agent.sync.status();
            const moved = a.agent.services.repos.outbox.cursor() > (markAtKill[i] as number);
            if (killedAt && backOn[i] === null && st.connected && st.url !== victim.mqttUrl && moved)
              backOn[i] = Date.now();
          });
          await sleep(Math.max(0, ROUND_MS - (Date.now() - t0)));
        }
        await (restarting ?? victim.start());

        // every agent publishing (again) within 5 s of the kill; agent 2 (node 2's) through another node
        const failoverMs = backOn.map((t) => (t === null ? null : t - killedAt));
        // the simulated stations of node 2: connected to another node
        const simMs = sims
          .filter((_, i) => i % 3 === 1)
          .map((s) => (s.connects.find((x) => x.at > killedAt)?.at ?? Number.POSITIVE_INFINITY) - killedAt);
        console.log(
          `failover: agents ${JSON.stringify(failoverMs)} ms, simulated max ${Math.max(...simMs)} ms`,
        );
        for (const ms of failoverMs) expect(ms).not.toBeNull();
        expect(Math.max(...(failoverMs as number[]))).toBeLessThan(deadline(5000));
        expect(Math.max(...simMs)).toBeLessThan(deadline(5000));

        // node 2 is back: its stations return to it, and nobody else moves
        const home = (i: number) => rotated(c.mqttUrls, i)[0];
        await expect
          .poll(
            () =>
              agents.every(
                (a, i) => a.agent.sync.status().url === home(i) && a.agent.sync.status().connected,
              ) && sims.every((s, i) => s.url() === home(i) && s.connected()),
            { timeout: deadline(30_000), interval: 250 },
          )
          .toBe(true);
        const moves = sims.map((s) => s.connects.filter((x) => x.at > killedAt).length);
        expect(moves.filter((_, i) => i % 3 !== 1)).toEqual(moves.filter((_, i) => i % 3 !== 1).map(() => 0));

        const expected = new Map<string, string[]>([
          ...agents.map((a, i) => [`${SITE}/${i + 1}`, committed(a)] as [string, string[]]),
          ...sims.map((s) => [s.station, [...s.committed()]] as [string, string[]]),
        ]);
        const total = [...expected.values()].reduce((n, p) => n + p.length, 0);
        await expect
          .poll(() => audit(handed, expected).missing, { timeout: deadline(60_000), interval: 500 })
          .toBe(0);
        const result = audit(handed, expected);
        console.log(`central: ${total} committed, ${handed.length} handed`, JSON.stringify(result));
        expect(result).toMatchObject({ missing: 0, inversions: 0, wrong: 0 });
      },
      deadline(240_000),
    );
  },
);
