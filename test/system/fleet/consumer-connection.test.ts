/**
 * The reference consumer's MQTT connection when the broker says yes but does nothing
 * (docs/mqtt.md#nats): a SUBACK that refuses a filter is asked again, and a connection that brings no
 * message at all for `silenceMs` while stations are known is dropped and made again, the gap then
 * repaired by replay. Against aedes, whose hooks make it refuse a subscription or stop forwarding to one
 * connection, with a simulated station (bench/sim-station.mjs) that speaks the agent's contract.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "aedes";
import { afterEach, describe, expect, it } from "vitest";
import { type SimStation, simStation } from "../../../bench/sim-station.mjs";
import {
  type Consumer,
  type Delivery,
  startConsumer,
} from "../../../examples/central-consumer/src/consumer.js";
import { until } from "../../support/deadline.js";
import { startAedes, type TestBroker } from "../../support/sync/brokers.js";

const SITE = "dc1";

let broker: TestBroker | undefined;
let station: SimStation | undefined;
let consumer: Consumer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await consumer?.stop();
  await station?.stop();
  await broker?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  consumer = station = broker = dir = undefined;
});

function consume(
  b: TestBroker,
  silenceMs: number,
  subackTimeoutMs = 15_000,
): { delivered: Delivery[]; events: string[] } {
  dir = mkdtempSync(join(tmpdir(), "pps-edge-consumer-"));
  const delivered: Delivery[] = [];
  const events: string[] = [];
  consumer = startConsumer({
    url: b.url,
    site: SITE,
    statePath: join(dir, "central.db"),
    sink: (batch) => delivered.push(...batch),
    protocolVersion: 4,
    silenceMs,
    subackTimeoutMs,
    log: (event) => events.push(event),
  });
  return { delivered, events };
}

const seqs = (d: Delivery[]) => d.map((x) => x.seq);
const isConsumer = (c: Client | null) => c?.id.startsWith("central-consumer") === true;

describe("the consumer's connection", () => {
  it("asks again for a subscription the broker refused", async () => {
    // every filter of the consumer's first two SUBSCRIBEs refused (SUBACK 0x80)
    const asked = new Map<string, number>();
    broker = await startAedes({
      authorizeSubscribe: (client, sub, cb) => {
        if (!isConsumer(client)) return cb(null, sub);
        const n = (asked.get(sub.topic) ?? 0) + 1;
        asked.set(sub.topic, n);
        cb(null, n <= 2 ? null : sub);
      },
    });
    const { delivered, events } = consume(broker, 60_000);
    station = simStation({ urls: [broker.url], site: SITE, ppsId: "7" });
    for (let i = 0; i < 3; i++) station.notify("pick_started", { i });
    await until("three notifications at central", () => delivered.length >= 3, 15_000);
    expect(seqs(delivered)).toEqual([1, 2, 3]);
    expect([...asked.values()]).toEqual([3, 3, 3]);
    expect(events.filter((e) => e === "subscribe_refused")).toHaveLength(2);
    expect(consumer?.stats().refusedSubscriptions).toBe(2);
  });

  it("makes the connection again when its SUBACK does not come", async () => {
    // the consumer's first connection never has its SUBSCRIBE answered; the next one does
    let first: Client | null = null;
    let held = 0;
    broker = await startAedes({
      authorizeSubscribe: (client, sub, cb) => {
        if (isConsumer(client)) first ??= client;
        if (client === first) {
          held++;
          return; // no callback: no SUBACK
        }
        cb(null, sub);
      },
    });
    const { delivered, events } = consume(broker, 60_000, 1000);
    station = simStation({ urls: [broker.url], site: SITE, ppsId: "7" });
    for (let i = 0; i < 3; i++) station.notify("pick_started", { i });
    await until("three notifications at central", () => delivered.length >= 3, 15_000);
    expect(seqs(delivered)).toEqual([1, 2, 3]);
    expect(held).toBeGreaterThanOrEqual(1);
    expect(events.filter((e) => e === "subscribe_timeout")).toHaveLength(1);
    expect(consumer?.stats().redials).toBe(1);
  });

  it("drops a connection that brings nothing and makes it again; the gap comes by replay", async () => {
    let deaf: Client | null = null;
    let deafen = false;
    broker = await startAedes({
      // from `deafen` on, nothing reaches the consumer's connection of that moment, which stays up
      authorizeForward: (client, packet) => {
        if (deafen && deaf === null && isConsumer(client)) deaf = client;
        return client === deaf ? null : packet;
      },
    });
    const { delivered, events } = consume(broker, 1500);
    station = simStation({ urls: [broker.url], site: SITE, ppsId: "7" });
    for (let i = 0; i < 3; i++) station.notify("pick_started", { i });
    await until("three notifications at central", () => delivered.length >= 3, 15_000);
    deafen = true;
    for (let i = 3; i < 6; i++) station.notify("pick_started", { i });
    await until("six notifications at central", () => delivered.length >= 6, 15_000);
    expect(seqs(delivered)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(deaf).not.toBeNull();
    expect(events).toContain("silent");
    expect(consumer?.stats().redials).toBeGreaterThanOrEqual(1);
  });
});
