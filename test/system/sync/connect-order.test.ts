/**
 * What the agent writes after CONNACK (docs/mqtt.md#a-clustered-broker): the subscription, ONLINE,
 * state/station and the outbox, in that order and back to back, without waiting for each SUBACK and
 * PUBACK. A node taking over a dead node's stations answers slowly; a station that waited for four
 * answers in turn took four of its round trips to publish again. A subscription the broker refuses is
 * logged and the connection kept: the notifications still go out.
 */
import type { IPublishPacket, ISubscribePacket, Packet } from "mqtt-packet";
import { afterEach, describe, expect, it } from "vitest";
import type { TestAgent } from "../../support/agent.js";
import { deadline } from "../../support/deadline.js";
import { agentOn, notify, ROOT } from "../../support/sync/agent.js";
import { type ScriptedBroker, startScriptedBroker } from "../../support/sync/scripted-broker.js";

/** A broker that answers every QoS 1 PUBLISH, and SUBSCRIBE with `granted` (0x80: refused). */
function answering(granted: number): (p: Packet) => Packet[] {
  return (p) => {
    if (p.cmd === "subscribe") return [{ cmd: "suback", messageId: p.messageId, granted: [granted] }];
    if (p.cmd === "publish" && p.qos === 1) return [{ cmd: "puback", messageId: p.messageId as number }];
    return [];
  };
}

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

describe("after CONNACK", () => {
  let broker: ScriptedBroker | undefined;
  let t: TestAgent | undefined;
  afterEach(async () => {
    await t?.close();
    await broker?.close();
    t = broker = undefined;
  });

  it(
    "writes the subscription, ONLINE, state/station and the outbox at once, before any answer",
    async () => {
      // a node that answers nothing after CONNACK: no SUBACK, no PUBACK
      broker = await startScriptedBroker();
      t = await agentOn(broker);
      for (let i = 1; i <= 3; i++) notify(t, "order_information", { externalServiceRequestId: `ORD-${i}` });
      await broker.waitFor("three notifications", (p) => notifications(p).length >= 3);
      const labels = broker.packets.map(label);
      expect(labels.slice(0, 4)).toEqual([
        "connect",
        `subscribe ${ROOT}/request/+`,
        "publish connection ONLINE",
        "publish state/station",
      ]);
      expect(notifications(broker.packets)).toEqual([1, 2, 3].map((n) => `publish notification ${n}`));
      expect(labels.filter((l) => l === "connect")).toHaveLength(1);
      // no SUBACK yet: central's requests cannot arrive, and /readyz says so
      expect(await mqttReadiness(t)).toMatch(/connected \(session \d+, requests pending\)$/);
    },
    deadline(20_000),
  );

  it(
    "says on /readyz that requests can arrive once the SUBACK grants the subscription",
    async () => {
      broker = await startScriptedBroker(answering(0));
      t = await agentOn(broker);
      const agent = t.agent;
      await expect.poll(() => agent.sync.status()).toMatchObject({ connected: true, requests: "subscribed" });
      expect(await mqttReadiness(t)).toMatch(/connected \(session \d+, requests subscribed\)$/);
    },
    deadline(20_000),
  );

  it(
    "keeps the connection when the subscription is refused, and the notifications are acknowledged",
    async () => {
      broker = await startScriptedBroker(answering(0x80));
      t = await agentOn(broker);
      for (let i = 1; i <= 3; i++) notify(t, "order_information", { externalServiceRequestId: `ORD-${i}` });
      await broker.waitFor("three notifications", (p) => notifications(p).length >= 3);
      const agent = t.agent;
      await expect.poll(() => agent.services.repos.outbox.cursor()).toBe(3);
      expect(agent.sync.status()).toMatchObject({ url: broker.url, connected: true, requests: "refused" });
      expect(await mqttReadiness(t)).toMatch(/requests refused\)$/);
      expect(broker.packets.map(label).filter((l) => l === "connect")).toHaveLength(1);
    },
    deadline(20_000),
  );
});
