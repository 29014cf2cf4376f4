/**
 * What the agent writes after CONNACK (docs/mqtt.md#connection-will-and-session-numbers): ONLINE,
 * state/station and the outbox, in that order and back to back, without waiting for each PUBACK; the
 * subscription only once those are acknowledged (or after 3 s). A node taking over a dead node's stations
 * answers slowly, and RabbitMQ 3.10 acknowledges nothing behind a SUBSCRIBE until it has made the
 * subscription's queue. A subscription the broker refuses is logged and the connection kept: the
 * notifications still go out.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { IPublishPacket, ISubscribePacket, Packet } from "mqtt-packet";
import { afterEach, describe, expect, it } from "vitest";
import type { TestAgent } from "../../support/agent.js";
import { agentOn, notify, ROOT } from "../../support/sync/agent.js";
import { type ScriptedBroker, startScriptedBroker } from "../../support/sync/scripted-broker.js";

/** The `mqtt` check of /readyz. */
async function mqttReadiness(t: TestAgent): Promise<string | undefined> {
  const body = (await (await t.request("/readyz")).json()) as { checks: Record<string, { detail: string }> };
  return body.checks.mqtt?.detail;
}

/** Each packet as `cmd topic` (SUBSCRIBE: its first filter), and a notification's seq. */
function label(p: Packet): string {
  if (p.cmd === "subscribe") return `subscribe ${(p as ISubscribePacket).subscriptions[0]?.topic}`;
  if (p.cmd !== "publish") return p.cmd;
  const pub = p as IPublishPacket;
  const rel = pub.topic.slice(ROOT.length + 1);
  if (rel === "connection") return `publish connection ${JSON.parse(pub.payload.toString()).state}`;
  if (rel === "notification")
    return `publish notification ${JSON.parse(pub.payload.toString()).notification_id.split(".").pop()}`;
  return `publish ${rel}`;
}

const notifications = (packets: Packet[]) =>
  packets.map(label).filter((l) => l.startsWith("publish notification"));
const SUBSCRIBE = `subscribe ${ROOT}/request/+`;

describe("after CONNACK", () => {
  let broker: ScriptedBroker | undefined;
  let t: TestAgent | undefined;
  afterEach(async () => {
    await t?.close();
    await broker?.close();
    t = broker = undefined;
  });

  it("writes ONLINE, state/station and the outbox at once, and subscribes after 3 s when nothing is answered", async () => {
    // a node that answers nothing after CONNACK: no SUBACK, no PUBACK
    broker = await startScriptedBroker();
    t = await agentOn(broker);
    for (let i = 1; i <= 3; i++) notify(t, "order_information", { externalServiceRequestId: `ORD-${i}` });
    await broker.waitFor("three notifications", (p) => notifications(p).length >= 3);
    const labels = broker.packets.map(label);
    expect(labels.slice(0, 3)).toEqual(["connect", "publish connection ONLINE", "publish state/station"]);
    expect(notifications(broker.packets)).toEqual([1, 2, 3].map((n) => `publish notification ${n}`));
    expect(labels).not.toContain(SUBSCRIBE);
    await broker.waitFor("the subscription", (p) => p.map(label).includes(SUBSCRIBE), 10_000);
    const at = broker.packets.map(label).indexOf(SUBSCRIBE);
    expect((broker.arrivals[at] as number) - (broker.arrivals[0] as number)).toBeGreaterThanOrEqual(2900);
    expect(broker.packets.map(label).filter((l) => l === "connect")).toHaveLength(1);
  }, 20_000);

  it("subscribes once what it wrote at connect is acknowledged, the outbox's resent notification too", async () => {
    // PUBACKs at once, but a notification's only when the test lets it go
    let hold = true;
    const held: number[] = [];
    broker = await startScriptedBroker((p) => {
      if (p.cmd === "subscribe") return [{ cmd: "suback", messageId: p.messageId, granted: [0] }];
      if (p.cmd !== "publish" || p.qos !== 1) return [];
      if (hold && label(p).startsWith("publish notification")) {
        held.push(p.messageId as number);
        return [];
      }
      return [{ cmd: "puback", messageId: p.messageId as number }];
    });
    t = await agentOn(broker);
    for (let i = 1; i <= 3; i++) notify(t, "order_information", { externalServiceRequestId: `ORD-${i}` });
    await broker.waitFor("three notifications", (p) => notifications(p).length >= 3);
    // the node dies: on the next connection the oldest unacknowledged one is written at connect (alone,
    // until acknowledged: src/sync/publisher.ts)
    const from = broker.packets.length;
    held.length = 0;
    broker.drop();
    await broker.waitFor("the first again", (p) => notifications(p.slice(from)).length >= 1);
    const again = () => broker?.packets.slice(from).map(label) ?? [];
    expect(again().slice(0, 3)).toEqual(["connect", "publish connection ONLINE", "publish state/station"]);
    await sleep(300);
    expect(again()).not.toContain(SUBSCRIBE);
    expect(await mqttReadiness(t)).toMatch(/connected \(session \d+, requests pending\)$/);
    hold = false;
    for (const messageId of held) broker.send({ cmd: "puback", messageId });
    await broker.waitFor("the subscription", (p) => p.slice(from).map(label).includes(SUBSCRIBE));
    const at = from + again().indexOf(SUBSCRIBE);
    // after the PUBACKs, well before the 3 s bound
    expect((broker.arrivals[at] as number) - (broker.arrivals[from] as number)).toBeLessThan(2500);
    const agent = t.agent;
    await expect.poll(() => agent.services.repos.outbox.cursor()).toBe(3);
    expect(await mqttReadiness(t)).toMatch(/requests subscribed\)$/);
  }, 20_000);

  it("keeps the connection when the subscription is refused, and the notifications are acknowledged", async () => {
    broker = await startScriptedBroker((p) => {
      if (p.cmd === "subscribe") return [{ cmd: "suback", messageId: p.messageId, granted: [0x80] }];
      if (p.cmd === "publish" && p.qos === 1) return [{ cmd: "puback", messageId: p.messageId as number }];
      return [];
    });
    t = await agentOn(broker);
    await broker.waitFor("the subscription", (p) => p.map(label).includes(SUBSCRIBE));
    for (let i = 1; i <= 3; i++) notify(t, "order_information", { externalServiceRequestId: `ORD-${i}` });
    await broker.waitFor("three notifications", (p) => notifications(p).length >= 3);
    const agent = t.agent;
    await expect.poll(() => agent.services.repos.outbox.cursor()).toBe(3);
    expect(agent.sync.status()).toMatchObject({ url: broker.url, connected: true, requests: "refused" });
    expect(await mqttReadiness(t)).toMatch(/requests refused\)$/);
    expect(broker.packets.map(label).filter((l) => l === "connect")).toHaveLength(1);
  }, 20_000);
});
