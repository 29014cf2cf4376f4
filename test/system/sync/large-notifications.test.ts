/**
 * A 1,000-line pick's notifications reach central whole, whatever the broker's limit
 * (docs/mqtt.md#notifications-in-parts): on the embedded broker, on Mosquitto as it comes and with a
 * `max_packet_size` it announces, and on RabbitMQ. Over MQTT they come in parts that the reference
 * consumer's code puts back together; over a webhook whole. Either way byte for byte what
 * `GET /station/notifications` has, and nothing moved aside as `too_large`.
 */
import { afterEach, describe, expect, it } from "vitest";
import { hasRabbitmq, type RabbitCluster, startRabbitCluster } from "../../../bench/rabbitmq-cluster.mjs";
import type { TestAgent } from "../../support/agent.js";
import { deadline, until } from "../../support/deadline.js";
import { ok, pickBody, SR, seedItem, setStock } from "../../support/station.js";
import { agentOn, CENTRAL, committed, FAST, notify, ROOT } from "../../support/sync/agent.js";
import { hasMosquitto, startAedes, startMosquitto, type TestBroker } from "../../support/sync/brokers.js";
import { reassembled } from "../../support/sync/parts.js";
import { type Subscriber, subscribe } from "../../support/sync/subscriber.js";
import { type Receiver, startReceiver } from "../../support/webhook-receiver.js";
import { endpoint, webhookAgent } from "../webhooks/support.js";

/** Where the agent publishes: its MQTT settings, and how central subscribes there. */
interface Target {
  mqtt: Record<string, unknown>;
  /** The broker's URL for central, or undefined for the agent's own (embedded) broker. */
  url?: string;
  protocolVersion: 4 | 5;
  /** The webhook receiver's body limit, and `webhooks.maxBodyBytes` set to it; absent: no limit. */
  webhookMaxBody?: number;
  close(): Promise<void>;
}

const TARGETS: Array<{ name: string; skip: boolean; start(): Promise<Target> }> = [
  {
    name: "the embedded broker",
    skip: false,
    start: async () => ({
      mqtt: { url: "embedded", embeddedPort: 0 },
      protocolVersion: 4,
      close: async () => {},
    }),
  },
  {
    name: "Mosquitto as it comes",
    skip: !hasMosquitto,
    start: () => onBroker(startMosquitto()),
  },
  {
    name: "Mosquitto with max_packet_size 256 KiB (announced in the MQTT 5 CONNACK)",
    skip: !hasMosquitto,
    start: async () => ({
      ...(await onBroker(startMosquitto({ extra: ["max_packet_size 262144"] }))),
      webhookMaxBody: 256 * 1024,
    }),
  },
  {
    name: "RabbitMQ (MQTT 3.1.1)",
    skip: !hasRabbitmq(),
    start: async () => {
      const c: RabbitCluster = await startRabbitCluster({ nodes: 1 });
      const url = c.mqttUrls[0] as string;
      return {
        mqtt: { url, protocolVersion: 4, requestQos: 0 },
        url,
        protocolVersion: 4,
        close: () => c.stop(),
      };
    },
  },
];

async function onBroker(started: Promise<TestBroker>): Promise<Target> {
  const b = await started;
  return {
    mqtt: { url: b.url, protocolVersion: b.protocolVersion },
    url: b.url,
    protocolVersion: b.protocolVersion,
    close: () => b.close(),
  };
}

/**
 * A line as central may write one: an id of 254 characters (ids may have 255) and a filter naming its
 * SKU among others (so a 1,000-line body is some 450 KB of the 1 MiB allowed).
 */
function line(order: string, n: number, sku: string) {
  const others = [1, 2].map((k) => `'${sku}-not-stocked-${k}-${"y".repeat(60)}'`).join(", ");
  return {
    externalServiceRequestId: `${order}-${String(n).padStart(4, "0")}-${"x".repeat(246)}`,
    type: "PICK_LINE",
    expectations: {
      containers: [
        {
          products: [
            {
              productQuantity: 1,
              productAttributes: { filter_parameters: [`product_sku in ('${sku}', ${others})`] },
            },
          ],
        },
      ],
    },
  };
}

/** The feed: every notification the station committed, each as the envelope's text. */
async function feed(t: TestAgent): Promise<string[]> {
  const res = await t.call("GET", "/station/notifications?after=0&limit=1000");
  const text = await res.text();
  expect(res.status).toBe(200);
  // the envelopes are spliced into the page as committed: cut them out of the text as they are
  const body = JSON.parse(text) as { notifications: Array<{ seq: number }> };
  return body.notifications.map(
    (n) => t.agent.services.repos.outbox.after(n.seq - 1, 1)[0]?.envelope as string,
  );
}

describe("a 1,000-line pick's notifications reach central whole", () => {
  let target: Target | undefined;
  let t: TestAgent | undefined;
  let sub: Subscriber | undefined;
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await sub?.close();
    await t?.close();
    await receiver?.close();
    await target?.close();
    sub = t = receiver = target = undefined;
  });

  for (const where of TARGETS)
    it.skipIf(where.skip)(
      `on ${where.name}, and at a webhook`,
      async () => {
        target = await where.start();
        receiver = await startReceiver();
        const limit = target.webhookMaxBody;
        // a receiver with a body limit refuses a larger body, as a web server does
        // and the first part 1 it gets fails once (503): that part is tried again, the set goes on
        let failedOnce = false;
        if (limit)
          receiver.script = (r) => {
            if (Buffer.byteLength(r.body) > limit) return { status: 413 };
            if (!failedOnce && String(r.headers["pps-edge-part"]).startsWith("1/")) {
              failedOnce = true;
              return { status: 503 };
            }
            return { status: 204 };
          };
        t = await webhookAgent([endpoint("central", receiver.url)], limit ? { maxBodyBytes: limit } : {}, {
          ...FAST,
          ...target.mqtt,
        });
        const agent = t;
        sub = await subscribe(target.url ?? (agent.agent.sync.url as string), [`${ROOT}/notification`], {
          ...(target.url ? {} : CENTRAL),
          protocolVersion: target.protocolVersion,
        });
        await seedItem(agent, "A");
        await seedItem(agent, "Z");
        await setStock(agent, "S1", "M1", "A", 1000);
        // not fulfillable (no Z in stock): the large order_information at once
        await ok(
          agent.call(
            "POST",
            SR,
            pickBody(
              "NF",
              Array.from({ length: 1000 }, (_, n) => line("NF", n, "Z")),
            ),
          ),
        );
        // fulfillable, then cancelled: its order_information twice more, and the order_modification
        await ok(
          agent.call(
            "POST",
            SR,
            pickBody(
              "OK",
              Array.from({ length: 1000 }, (_, n) => line("OK", n, "A")),
            ),
          ),
        );
        await ok(agent.call("POST", `${SR}/cancel`, { externalServiceRequestId: "OK", type: "PICK" }), 202);

        const committed = await feed(agent);
        const sizes = committed.map((e) => Buffer.byteLength(e));
        // at least one of them is larger than one message may be (1 MiB, or the broker's packet size)
        expect(Math.max(...sizes)).toBeGreaterThan(1024 * 1024);
        const messages = () => (sub as Subscriber).on(`${ROOT}/notification`).map((m) => m.payload);
        await (sub as Subscriber).waitFor(
          `${committed.length} notifications put together`,
          () => reassembled(messages()).length >= committed.length,
          60_000,
        );
        const central = reassembled(messages());
        expect(central.length).toBe(committed.length);
        for (const [i, e] of central.entries())
          expect(e === committed[i], `notification ${i + 1}`).toBe(true);
        expect(messages().length).toBeGreaterThan(committed.length); // some came in parts
        const hook = receiver as Receiver;
        const atHook = () => reassembled(hook.accepted.map((r) => r.body));
        await hook.waitFor(committed.length, 60_000);
        await until("every notification at the webhook", () => atHook().length >= committed.length, 60_000);
        expect(atHook()).toEqual(committed);
        expect(hook.unverified).toEqual([]);
        if (limit) {
          // in parts, each within the limit and named by its header: none was refused
          expect(hook.requests.every((r) => Buffer.byteLength(r.body) <= limit)).toBe(true);
          expect(hook.requests.filter((r) => r.headers["pps-edge-part"]).length).toBeGreaterThan(0);
          const firstPartOne = hook.requests.filter(
            (r) =>
              r.id === hook.requests.find((q) => String(q.headers["pps-edge-part"]).startsWith("1/"))?.id,
          );
          expect(firstPartOne.length).toBe(2); // refused once, then taken
        } else expect(hook.accepted.map((r) => r.body)).toEqual(committed);
        const dead = agent.agent.db.sqlite.prepare("SELECT count(*) AS n FROM outbox_dead").get() as {
          n: number;
        };
        expect(dead.n).toBe(0);
      },
      deadline(180_000),
    );
});

describe("a notification in parts counts as delivered only with all its parts", () => {
  let broker: TestBroker | undefined;
  let t: TestAgent | undefined;
  let central: Subscriber | undefined;
  afterEach(async () => {
    await central?.close();
    await t?.close();
    await broker?.close();
    central = t = broker = undefined;
  });

  it("a connection lost between parts sends the whole set again; central puts it together once", async () => {
    /** Parts the broker has taken, by index; the first part 2 it sees breaks the connection. */
    const taken: number[] = [];
    let cursorAtBreak: number | undefined;
    let agent: TestAgent | undefined;
    broker = await startAedes({
      keepSessions: true,
      authorizePublish: (_client, packet, cb) => {
        const index = (JSON.parse(packet.payload.toString()) as { notification_part?: { index: number } })
          .notification_part?.index;
        if (index === 2 && cursorAtBreak === undefined) {
          // parts 0 and 1 are acknowledged: the delivery cursor must still be before their notification
          cursorAtBreak = agent?.agent.services.repos.outbox.cursor();
          cb(new Error("the link breaks between parts"));
          return;
        }
        if (index !== undefined) taken.push(index);
        cb(null);
      },
    });
    central = await (broker.inside as NonNullable<TestBroker["inside"]>)(`${ROOT}/notification`);
    t = await agentOn(broker, { maxMessageBytes: 2048, inflightWindow: 8 });
    agent = t;
    const a = t;
    notify(a, "order_information", { n: 1 });
    notify(a, "order_information", { n: 2, lines: "x".repeat(9000) });
    notify(a, "order_information", { n: 3 });
    const c = central;
    const whole = () => reassembled(c.on(`${ROOT}/notification`).map((m) => m.payload));
    await c.waitFor("all three", () => whole().length >= 3);
    expect(whole()).toEqual(committed(a));
    expect(cursorAtBreak).toBeLessThan(2);
    // the set went again from part 0, whole
    const count = (
      JSON.parse(
        c.on(`${ROOT}/notification`).find((m) => m.payload.includes("notification_part"))?.payload ?? "{}",
      ) as {
        notification_part: { count: number };
      }
    ).notification_part.count;
    const again = taken.lastIndexOf(0);
    expect(again).toBeGreaterThan(0);
    expect(taken.slice(again)).toEqual(Array.from({ length: count }, (_, i) => i));
    const dead = a.agent.db.sqlite.prepare("SELECT count(*) AS n FROM outbox_dead").get() as { n: number };
    expect(dead.n).toBe(0);
    await until(
      "everything recorded as delivered",
      () => a.agent.services.repos.outbox.cursor() === 3,
      15_000,
    );
  });
});
