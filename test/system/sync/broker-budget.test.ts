/**
 * The embedded broker's budget per caller (docs/limits.md), over real sockets and a real MQTT client:
 * one address cannot hold more than `mqtt.embeddedMaxConnectionsPerAddress` connections, and a client
 * cannot hold more than `mqtt.embeddedMaxSubscriptionsPerClient` filters (the rest get SUBACK 0x80, the
 * connection stays); central is served throughout.
 */
import { connect, type Socket } from "node:net";
import mqtt from "mqtt";
import { afterEach, describe, expect, it } from "vitest";
import { SCRAPE, type TestAgent } from "../../support/agent.js";
import { deadline, until } from "../../support/deadline.js";
import { agentOn, ask, CENTRAL, ROOT } from "../../support/sync/agent.js";
import { subscribe } from "../../support/sync/subscriber.js";

let t: TestAgent | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await t?.close();
  t = undefined;
});

async function refusals(reason: string): Promise<number> {
  const text = (await (await t?.request("/metrics", SCRAPE))?.text()) ?? "";
  const m = text.match(new RegExp(`budget_refusals_total\\{reason="${reason}"\\} (\\d+)`));
  return m ? Number(m[1]) : 0;
}

/**
 * Opens `n` TCP connections from `localAddress` that send nothing; how many the broker closed once
 * `expected` of them were closed (or the deadline passed) and a moment more went by for any extra.
 */
async function closedOf(port: number, localAddress: string, n: number, expected: number): Promise<number> {
  let closed = 0;
  await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<void>((ok) => {
          const s = connect({ port, host: "127.0.0.1", localAddress }, () => ok());
          s.on("error", () => ok());
          s.once("close", () => closed++);
          sockets.push(s);
        }),
    ),
  );
  await until(`${expected} of ${n} connections from ${localAddress} closed`, () => closed >= expected).catch(
    () => {},
  );
  await new Promise((r) => setTimeout(r, 200));
  return closed;
}

describe("embedded broker connections", () => {
  it(
    "one address holds at most embeddedMaxConnectionsPerAddress; all at most embeddedMaxConnections",
    async () => {
      t = await agentOn("embedded", { embeddedMaxConnectionsPerAddress: 3, embeddedMaxConnections: 8 });
      const url = t.agent.sync.url as string;
      const port = Number(new URL(url).port);
      expect(await closedOf(port, "127.0.0.2", 10, 7)).toBe(7);
      // three more addresses, three each: only what is left of the 8 (the agent's own client holds one)
      const kept =
        3 * 3 -
        ((await closedOf(port, "127.0.0.3", 3, 0)) +
          (await closedOf(port, "127.0.0.4", 3, 2)) +
          (await closedOf(port, "127.0.0.5", 3, 3)));
      expect(kept).toBe(8 - 1 - 3);
      expect(await refusals("mqtt_connections_per_address")).toBe(7);
      expect(await refusals("mqtt_connections")).toBe(5);
      // the idle ones go; then central connects and is answered
      for (const s of sockets.splice(0)) s.destroy();
      await new Promise((r) => setTimeout(r, 200));
      const central = await subscribe(url, [`${ROOT}/response/#`], CENTRAL);
      try {
        const answer = JSON.parse(await ask(central, "health_check", { transaction: "after" })) as {
          status: string;
        };
        expect(answer.status).toBe("ok");
      } finally {
        await central.close();
      }
    },
    deadline(30_000),
  );
});

/** The SUBACK's return codes (mqtt.js rejects a SUBACK holding a 0x80, with the packet on the error). */
async function grantedQos(client: mqtt.MqttClient, filters: string[]): Promise<number[]> {
  try {
    return (await client.subscribeAsync(filters, { qos: 1 })).map((s) => s.qos);
  } catch (e) {
    const granted = (e as { packet?: { granted?: number[] } }).packet?.granted;
    if (!granted) throw e;
    return granted;
  }
}

describe("embedded broker subscriptions", () => {
  it(
    "a client holds at most embeddedMaxSubscriptionsPerClient filters; the rest are refused, the connection kept",
    async () => {
      t = await agentOn("embedded", { embeddedMaxSubscriptionsPerClient: 50 });
      const url = t.agent.sync.url as string;
      const client = await mqtt.connectAsync(url, { ...CENTRAL, protocolVersion: 4, reconnectPeriod: 0 });
      try {
        // 2,000 filters of 1 KB, 200 to a SUBSCRIBE
        const granted: number[] = [];
        for (let batch = 0; batch < 10; batch++) {
          const filters = Array.from(
            { length: 200 },
            (_, i) => `${ROOT}/state/PICK/${String(batch * 200 + i).padStart(1000, "x")}`,
          );
          granted.push(...(await grantedQos(client, filters)));
        }
        expect(granted.filter((q) => q !== 128)).toHaveLength(50);
        expect(client.connected).toBe(true);
        // an unsubscribed filter's place can be taken again
        await client.unsubscribeAsync(`${ROOT}/state/PICK/${"0".padStart(1000, "x")}`);
        expect(await grantedQos(client, [`${ROOT}/state/PICK/new`])).toEqual([1]);
        expect(await refusals("mqtt_subscriptions")).toBe(1950);
      } finally {
        await client.endAsync();
      }
    },
    deadline(30_000),
  );
});
