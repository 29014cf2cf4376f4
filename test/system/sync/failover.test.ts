/**
 * A clustered broker (docs/mqtt.md#a-clustered-broker): the agent knows every node (`mqtt.url` and
 * `mqtt.failoverUrls`), so when its node dies it publishes through another one while that node stays
 * down, and nothing committed is lost on the way. Two real brokers stand for two nodes; each has a
 * consumer inside it, like a central system whose own link to the cluster stays up. Once its own node is
 * back, the station returns to it (`mqtt.failbackAfterMs`), without a Will and without duplicates; a node
 * that takes TCP but not MQTT is returned to less and less often.
 */
import { createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { TestAgent } from "../../support/agent.js";
import { deadline, until } from "../../support/deadline.js";
import { agentOn, committed, inOrderWithoutGaps, notify, ROOT } from "../../support/sync/agent.js";
import { freePort, startAedes, type TestBroker } from "../../support/sync/brokers.js";
import type { Subscriber } from "../../support/sync/subscriber.js";

const tick = () => new Promise<void>((ok) => setImmediate(ok));
const seqOf = (payload: string) =>
  Number((JSON.parse(payload) as { notification_id: string }).notification_id.split(".").pop());

/** What central sees across the nodes: every notification once, by seq. */
function acrossNodes(subs: Subscriber[]): string[] {
  const bySeq = new Map<number, string>();
  for (const s of subs) for (const m of s.on(`${ROOT}/notification`)) bySeq.set(seqOf(m.payload), m.payload);
  return [...bySeq.entries()].sort((a, b) => a[0] - b[0]).map(([, p]) => p);
}

async function emit(t: TestAgent, from: number, to: number): Promise<void> {
  for (let i = from; i <= to; i++) {
    notify(t, "order_information", { externalServiceRequestId: `ORD-${i}`, state: "fulfillable" });
    if (i % 10 === 0) await tick();
  }
}

describe("failover across the nodes of a clustered broker", () => {
  const nodes: TestBroker[] = [];
  const subs: Subscriber[] = [];
  let t: TestAgent | undefined;
  afterEach(async () => {
    for (const s of subs.splice(0)) await s.close();
    await t?.close();
    for (const n of nodes.splice(0)) await n.close();
  });

  it(
    "its node dies: the station publishes through the other node, which it was never told to wait for",
    async () => {
      for (let i = 0; i < 2; i++) nodes.push(await startAedes({ keepSessions: true }));
      const [a, b] = nodes as [TestBroker, TestBroker];
      const [subA, subB] = [await a.inside?.(`${ROOT}/#`), await b.inside?.(`${ROOT}/#`)] as Subscriber[];
      subs.push(subA as Subscriber, subB as Subscriber);
      t = await agentOn(a, { failoverUrls: [b.url], failbackAfterMs: 0 });
      await subA?.waitFor("ONLINE on node A", (m) => m.some((x) => x.payload.includes('"ONLINE"')));
      await emit(t, 1, 100);
      await subA?.waitFor("100 on node A", () => (subA?.on(`${ROOT}/notification`).length ?? 0) >= 100);
      expect(t.agent.sync.status().url).toBe(a.url);

      // node A dies and stays down for the rest of the test
      await a.stop();
      await emit(t, 101, 300);
      await subB?.waitFor("ONLINE on node B", (m) => m.some((x) => x.payload.includes('"ONLINE"')));
      await subB?.waitFor("the rest through node B", () => acrossNodes(subs).length >= 300);
      expect(t.agent.sync.status()).toMatchObject({ url: b.url, connected: true });
      // node B carried what came after the failover, in order from where node A stopped
      const onB = (subB as Subscriber).on(`${ROOT}/notification`).map((m) => seqOf(m.payload));
      expect(onB.length).toBeGreaterThan(0);
      expect(Math.max(...onB)).toBe(300);
      expect(inOrderWithoutGaps(acrossNodes(subs))).toEqual(committed(t as TestAgent));
    },
    deadline(30_000),
  );

  it(
    "the last node dies while the first is back: the station returns to the first",
    async () => {
      for (let i = 0; i < 2; i++) nodes.push(await startAedes({ keepSessions: true }));
      const [a, b] = nodes as [TestBroker, TestBroker];
      const [subA, subB] = [await a.inside?.(`${ROOT}/#`), await b.inside?.(`${ROOT}/#`)] as Subscriber[];
      subs.push(subA as Subscriber, subB as Subscriber);
      t = await agentOn(a, { failoverUrls: [b.url] });
      await subA?.waitFor("ONLINE on node A", (m) => m.some((x) => x.payload.includes('"ONLINE"')));
      await a.stop();
      await subB?.waitFor("ONLINE on node B", (m) => m.some((x) => x.payload.includes('"ONLINE"')));
      await a.start();
      await b.stop();
      await emit(t, 1, 50);
      await subA?.waitFor("50 through node A again", () => acrossNodes(subs).length >= 50);
      expect(t.agent.sync.status()).toMatchObject({ url: a.url, connected: true });
      expect(inOrderWithoutGaps(acrossNodes(subs))).toEqual(committed(t as TestAgent));
    },
    deadline(30_000),
  );

  it(
    "its own node is back: the station returns to it once it has answered, with no Will and no duplicate",
    async () => {
      for (let i = 0; i < 2; i++) nodes.push(await startAedes({ keepSessions: true }));
      const [a, b] = nodes as [TestBroker, TestBroker];
      const [subA, subB] = [await a.inside?.(`${ROOT}/#`), await b.inside?.(`${ROOT}/#`)] as Subscriber[];
      subs.push(subA as Subscriber, subB as Subscriber);
      t = await agentOn(a, { failoverUrls: [b.url], failbackAfterMs: 400 });
      await subA?.waitFor("ONLINE on node A", (m) => m.some((x) => x.payload.includes('"ONLINE"')));
      await a.stop();
      await emit(t, 1, 100);
      await subB?.waitFor("100 through node B", () => acrossNodes(subs).length >= 100);
      expect(t.agent.sync.status().url).toBe(b.url);
      const onlineOnA = () =>
        (subA as Subscriber).on(`${ROOT}/connection`).filter((m) => m.payload.includes('"ONLINE"'));
      const before = onlineOnA().length;

      await a.start();
      // notifications keep coming while the station moves back
      for (let i = 101; i <= 400; i += 20) {
        await emit(t, i, i + 19);
        await new Promise((ok) => setTimeout(ok, 50));
      }
      await subA?.waitFor("ONLINE on node A again", () => onlineOnA().length > before);
      await subA?.waitFor("the rest through node A", () => acrossNodes(subs).length >= 400);
      expect(t.agent.sync.status()).toMatchObject({ url: a.url, connected: true });
      // left with a DISCONNECT: node B never says the station broke
      expect((subB as Subscriber).on(`${ROOT}/connection`).map((m) => m.payload)).not.toContainEqual(
        expect.stringContaining("CONNECTION_BROKEN"),
      );
      // what was in flight on B was acknowledged there, not sent again on A
      const seqs = subs.flatMap((x) => x.on(`${ROOT}/notification`).map((m) => seqOf(m.payload)));
      expect(seqs.length).toBe(new Set(seqs).size);
      expect(inOrderWithoutGaps(acrossNodes(subs))).toEqual(committed(t as TestAgent));
    },
    deadline(30_000),
  );

  it(
    "an earlier address takes TCP but not MQTT: the returns to it come further and further apart",
    async () => {
      nodes.push(await startAedes({ keepSessions: true }));
      const b = nodes[0] as TestBroker;
      const subB = (await b.inside?.(`${ROOT}/#`)) as Subscriber;
      subs.push(subB);
      // accepts the connection, reads the CONNECT, and closes: a port taken by something else
      const port = await freePort();
      const attempts: number[] = [];
      const sockets = new Set<Socket>();
      const fake: Server = createServer((socket) => {
        sockets.add(socket);
        socket.once("data", () => {
          attempts.push(Date.now());
          socket.destroy();
        });
        socket.once("close", () => sockets.delete(socket));
      });
      await new Promise<void>((ok) => fake.listen(port, "127.0.0.1", () => ok()));
      try {
        t = await agentOn(
          { url: `mqtt://127.0.0.1:${port}`, protocolVersion: 4 },
          { failoverUrls: [b.url], failbackAfterMs: 200 },
        );
        await subB.waitFor("ONLINE on node B", (m) => m.some((x) => x.payload.includes('"ONLINE"')));
        // the first connect, then four returns
        await until("four returns to the address that refuses MQTT", () => attempts.length >= 5, 20_000);
        // Each return waits out a hold of at least failbackAfterMs doubled per failed return before it
        // (src/domain/backoff.ts failbackHoldMs), counted from its connection's first check: at least
        // 0.2 s, 0.4 s, 0.8 s, then 1.6 s. A busy machine only lengthens a gap; returns that did not
        // double would come every 0.2–0.4 s and a few hundred ms of connecting.
        const gaps = attempts.slice(1, 5).map((at, i) => at - (attempts[i] as number));
        expect(gaps.map((g, i) => (g >= 200 * 2 ** i ? "held" : `${g} ms`))).toEqual(Array(4).fill("held"));
        // after each failed return the station is back on node B
        const agent = t;
        await until("back on node B after the last return", () => {
          const s = agent.agent.sync.status();
          return s.url === b.url && s.connected;
        });
        await emit(t, 1, 20);
        await subB.waitFor("20 through node B", () => acrossNodes(subs).length >= 20);
      } finally {
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((ok) => fake.close(() => ok()));
      }
    },
    deadline(30_000),
  );
});
