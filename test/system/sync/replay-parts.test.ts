/**
 * A notification too large for any replay answer, missing at central, is filled by replay in parts
 * (docs/mqtt.md#large-notifications-by-replay): the reference consumer, started after the station
 * published it, repairs the gap page by page, one part a page, and hands on every notification byte for
 * byte as committed, none unavailable. On the embedded broker and on a real Mosquitto.
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
import type { TestAgent } from "../../support/agent.js";
import { until } from "../../support/deadline.js";
import { agentOn, CENTRAL, committed, notify, SITE } from "../../support/sync/agent.js";
import { hasMosquitto, startMosquitto, type TestBroker } from "../../support/sync/brokers.js";

const TARGETS = [
  { name: "the embedded broker", skip: false, start: async (): Promise<TestBroker | undefined> => undefined },
  { name: "Mosquitto", skip: !hasMosquitto, start: (): Promise<TestBroker | undefined> => startMosquitto() },
];

let broker: TestBroker | undefined;
let t: TestAgent | undefined;
let consumer: Consumer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await consumer?.stop();
  await t?.close();
  await broker?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  consumer = t = broker = dir = undefined;
});

describe("replay fills a large notification central missed, in parts", () => {
  for (const target of TARGETS) {
    it.skipIf(target.skip)(`on ${target.name}`, async () => {
      broker = await target.start();
      // answers of at most 8 KiB: the 90 KB notification comes in a dozen parts or so
      t = await agentOn(broker ?? "embedded", { maxMessageBytes: 8192 });
      const agent = t;
      notify(agent, "order_information", { i: 1 });
      notify(agent, "order_information", { i: 2, pad: 'ü"\\✓'.repeat(10_000) });
      notify(agent, "bin_complete", { i: 3 });
      // published, in parts, while central was not there: the broker kept none of it for central
      await until(
        "the three delivered to the broker",
        () => agent.agent.services.repos.outbox.undeliveredCount() === 0,
      );
      dir = mkdtempSync(join(tmpdir(), "pps-edge-replay-parts-"));
      const delivered: Delivery[] = [];
      const events: string[] = [];
      consumer = startConsumer({
        url: agent.agent.sync.url as string,
        site: SITE,
        ...CENTRAL,
        protocolVersion: broker?.protocolVersion ?? 4,
        statePath: join(dir, "central.db"),
        sink: (batch) => delivered.push(...batch),
        stream: { gapGraceMs: 200, markGraceMs: 200 },
        log: (event) => events.push(event),
      });
      // the station's high-water mark (retained state/station) says 3: the consumer asks for 1 to 3
      notify(agent, "bin_complete", { i: 4 });
      const all = committed(agent);
      await until("every notification at central", () => delivered.length >= all.length);
      expect(delivered.map((d) => d.seq)).toEqual([1, 2, 3, 4]);
      expect(delivered.map((d) => d.payload)).toEqual(all);
      expect(Buffer.byteLength(delivered[1]?.payload ?? "")).toBeGreaterThan(60_000);
      const stats = consumer.stats();
      expect(stats.unavailable).toBe(0);
      // one page ending before the large one, a page for each of its parts, one after it
      expect(stats.replayRequests).toBeGreaterThan(8);
      expect(events).not.toContain("part_refused");
      expect(events).not.toContain("unavailable");
    });
  }
});
