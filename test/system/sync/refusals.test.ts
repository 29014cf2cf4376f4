import { afterEach, describe, expect, it, vi } from "vitest";
import { SCRAPE, type TestAgent } from "../../support/agent.js";
import { deadline } from "../../support/deadline.js";
import { agentOn, committed, notify, ROOT } from "../../support/sync/agent.js";
import {
  freePort,
  hasMosquitto,
  startAedes,
  startMosquitto,
  type TestBroker,
} from "../../support/sync/brokers.js";
import { reassembled } from "../../support/sync/parts.js";
import { type Subscriber, subscribe } from "../../support/sync/subscriber.js";

const big = "x".repeat(3000);
const ids = (s: Subscriber) =>
  s
    .on(`${ROOT}/notification`)
    .map((m) => (JSON.parse(m.payload) as { notification_id: string }).notification_id);
/** The notifications as central has them: parts put together, each once. */
const whole = (s: Subscriber) => reassembled(s.on(`${ROOT}/notification`).map((m) => m.payload));
const dead = (t: TestAgent) =>
  t.agent.db.sqlite.prepare("SELECT seq, reason, reason_code AS code FROM outbox_dead ORDER BY seq").all();

describe("a notification the broker refuses for good is moved aside and does not block the rest", () => {
  let broker: TestBroker | undefined;
  let t: TestAgent | undefined;
  let sub: Subscriber | undefined;
  afterEach(async () => {
    await sub?.close();
    await t?.close();
    await broker?.close();
    sub = t = broker = undefined;
  });

  it.skipIf(!hasMosquitto)(
    "Mosquitto refuses with PUBACK 0x87 (not authorised): each is moved aside with its reason",
    async () => {
      // The station may publish its connection and state, not its notifications: a misconfigured ACL.
      // (Mosquitto 2.0 also closes the connection after such a PUBACK; the agent reconnects and goes on.)
      broker = await startMosquitto({
        acl: ["connection", "state/#", "response/#", "request/#"].map((t) => `topic readwrite ${ROOT}/${t}`),
      });
      sub = await subscribe(broker.url, [`${ROOT}/connection`]);
      t = await agentOn(broker);
      await sub.waitFor("ONLINE", (m) => m.some((x) => x.payload.includes('"ONLINE"')));
      for (let n = 1; n <= 3; n++) notify(t, "order_information", { n });
      const agent = t;
      await vi.waitFor(() => expect(dead(agent)).toHaveLength(3), { timeout: deadline(5000), interval: 20 });
      expect(dead(t)).toEqual([1, 2, 3].map((seq) => ({ seq, reason: "not_authorized", code: 0x87 })));
      const metrics = await (await t.request("/metrics", SCRAPE)).text();
      expect(metrics).toMatch(/^mqtt_refused_total\{reason="not_authorized"\} 3$/m);
      expect(metrics).toMatch(/^outbox_dead 3$/m);
      expect(metrics).toMatch(/^outbox_undelivered 0$/m);
    },
  );

  it.skipIf(!hasMosquitto)(
    "a message above the broker's announced maximum packet size goes out in parts, nothing moved aside",
    async () => {
      broker = await startMosquitto({ extra: ["max_packet_size 2000"] });
      sub = await subscribe(broker.url, [`${ROOT}/notification`]);
      t = await agentOn(broker);
      notify(t, "order_information", { n: 1 });
      notify(t, "order_information", { n: 2, big });
      notify(t, "order_information", { n: 3 });
      await sub.waitFor("all three", () => whole(sub as Subscriber).length >= 3);
      expect(whole(sub)).toEqual(committed(t));
      // 3 KB in parts of at most 2,000 bytes less the packet's header and topic
      expect(sub.on(`${ROOT}/notification`).length).toBeGreaterThanOrEqual(4);
      for (const m of sub.on(`${ROOT}/notification`)) expect(Buffer.byteLength(m.payload)).toBeLessThan(2000);
      expect(dead(t)).toEqual([]);
    },
  );

  it("a message above mqtt.maxMessageBytes goes out in parts, nothing moved aside", async () => {
    broker = await startAedes();
    sub = await subscribe(broker.url, [`${ROOT}/notification`]);
    t = await agentOn(broker, { maxMessageBytes: 2048 });
    notify(t, "order_information", { n: 1, big });
    notify(t, "order_information", { n: 2 });
    await sub.waitFor("both", () => whole(sub as Subscriber).length >= 2);
    expect(whole(sub)).toEqual(committed(t));
    for (const m of sub.on(`${ROOT}/notification`))
      expect(Buffer.byteLength(m.payload)).toBeLessThanOrEqual(2048);
    expect(dead(t)).toEqual([]);
  });

  it("a message that makes an MQTT 3.1.1 broker drop the connection is moved aside after maxDeliveryAttempts", async () => {
    // aedes closes the connection when authorizePublish fails: 3.1.1 has no way to refuse one message.
    broker = await startAedes({
      authorizePublish: (_client, packet, cb) =>
        cb(packet.payload.toString().includes("POISON") ? new Error("refused") : null),
    });
    sub = await subscribe(broker.url, [`${ROOT}/notification`]);
    t = await agentOn(broker, { maxDeliveryAttempts: 3, inflightWindow: 4 });
    notify(t, "order_information", { n: 1 });
    notify(t, "order_information", { n: 2, note: "POISON" });
    for (let n = 3; n <= 10; n++) notify(t, "order_information", { n });
    await sub.waitFor("all but the poison", () => new Set(ids(sub as Subscriber)).size >= 9);
    const distinct = [...new Set(ids(sub))];
    expect(distinct).toEqual(["dc1.7.1", ...[3, 4, 5, 6, 7, 8, 9, 10].map((n) => `dc1.7.${n}`)]);
    expect(dead(t)).toEqual([{ seq: 2, reason: "retries_exhausted", code: null }]);
  });
});

describe("the outbox reports its backlog long before its bound", () => {
  let t: TestAgent | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("readyz turns 503 on the outbox check at the warning depth while the broker is unreachable", async () => {
    const port = await freePort(); // nothing listens there
    t = await agentOn(
      { name: "aedes", url: `mqtt://127.0.0.1:${port}`, port, protocolVersion: 4 } as TestBroker,
      {
        outboxWarnDepth: 3,
      },
    );
    const ready = async () =>
      (await t?.request("/readyz"))?.json() as Promise<{
        ready: boolean;
        checks: Record<string, { ok: boolean; detail: string }>;
      }>;
    notify(t, "order_information", { n: 1 });
    notify(t, "order_information", { n: 2 });
    expect((await ready()).checks.outbox).toEqual({
      ok: true,
      detail: "2 undelivered, oldest 0 s, 0 moved aside",
    });
    notify(t, "order_information", { n: 3 });
    const res = await t.request("/readyz");
    expect(res.status).toBe(503);
    const body = (await res.json()) as { checks: Record<string, { ok: boolean; detail: string }> };
    expect(body.checks.outbox).toEqual({ ok: false, detail: "3 undelivered, oldest 0 s, 0 moved aside" });
    expect(body.checks.mqtt?.ok).toBe(true);
    expect(body.checks.mqtt?.detail).toMatch(/disconnected/);
    // Age counts too: the clock moves past the age threshold (300 s by default).
    t.clock.now += 301_000;
    const metrics = await (await t.request("/metrics", SCRAPE)).text();
    expect(metrics).toMatch(/^outbox_undelivered 3$/m);
    expect(metrics).toMatch(/^outbox_oldest_undelivered_age_seconds 301$/m);
    expect(metrics).toMatch(/^mqtt_connected 0$/m);
  });
});
