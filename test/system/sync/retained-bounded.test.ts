/**
 * Bounded retained state (docs/mqtt.md#retained-state): a request's retained `state/<type>/<id>` is
 * cleared once it has been final for `mqtt.retainTerminalSeconds`, so the broker holds the station's
 * message and the active requests only, and a reconnect republishes only what is still retained.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import mqtt from "mqtt";
import { afterEach, describe, expect, it } from "vitest";
import type { TestAgent } from "../../support/agent.js";
import { deadline } from "../../support/deadline.js";
import { ok, pickBody, pickLine, SR, seedItem, setStock } from "../../support/station.js";
import { agentOn, ROOT } from "../../support/sync/agent.js";
import { startAedes, type TestBroker } from "../../support/sync/brokers.js";
import { type Subscriber, subscribe } from "../../support/sync/subscriber.js";

let broker: TestBroker | undefined;
let t: TestAgent | undefined;
const subs: Subscriber[] = [];
afterEach(async () => {
  for (const s of subs.splice(0)) await s.close();
  await t?.close();
  await broker?.close();
  t = undefined;
  broker = undefined;
});

/** Requests whose state the agent counts as retained on the broker (not yet cleared, or changed since). */
function heldInDatabase(a: TestAgent): number {
  const db = new Database(join(a.dir, "pps-edge.db"), { readonly: true });
  try {
    const sql = `SELECT count(*) AS n FROM service_requests
                  WHERE state_cleared_on IS NULL OR state_cleared_on < updated_on`;
    return (db.prepare(sql).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** The retained topics under `state/` that a consumer arriving now is given. */
async function retainedTopics(url: string): Promise<string[]> {
  const late = await subscribe(url, [`${ROOT}/state/#`, "test/sentinel"]);
  subs.push(late);
  // Retained messages are queued to the subscriber when it subscribes; a message published afterwards
  // on the same connection's subscriptions arrives after them, so it marks the end.
  const sender = await mqtt.connectAsync(url, { protocolVersion: 4 });
  await sender.publishAsync("test/sentinel", "end", { qos: 1 });
  await sender.endAsync();
  await late.waitFor("the sentinel", () => late.on("test/sentinel").length > 0);
  return late.messages
    .filter((m) => m.retain && m.topic.startsWith(`${ROOT}/state/`) && m.payload !== "")
    .map((m) => m.topic.slice(ROOT.length + 1))
    .sort();
}

/** `count` picks of an item the station has no stock of: each ends not_fulfillable (final) at once. */
async function failedPicks(a: TestAgent, prefix: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    await ok(a.call("POST", SR, pickBody(`${prefix}${i}`, [pickLine(`${prefix}${i}-1`, "NONE", 1)])));
  }
}

describe("retained state of finished requests", () => {
  it(
    "with retainTerminalSeconds 0, after 1,000 requests the broker holds the station and the active ones only",
    async () => {
      broker = await startAedes();
      t = await agentOn(broker, { retainTerminalSeconds: 0 });
      const agent = t;
      await seedItem(agent, "NONE");
      await seedItem(agent, "A");
      await setStock(agent, "S1", "M1", "A", 10);
      for (const id of ["ACT-1", "ACT-2", "ACT-3"]) {
        await ok(agent.call("POST", SR, pickBody(id, [pickLine(`${id}-1`, "A", 1)])));
      }
      await failedPicks(agent, "F-", 997);

      await expect.poll(() => heldInDatabase(agent), { timeout: deadline(15_000) }).toBe(3);
      expect(await retainedTopics(broker.url)).toEqual([
        "state/PICK/ACT-1",
        "state/PICK/ACT-2",
        "state/PICK/ACT-3",
        "state/station",
      ]);
    },
    deadline(60_000),
  );

  it(
    "a final request keeps its retained state for the window, is cleared after it, and a reconnect does not bring it back",
    async () => {
      broker = await startAedes();
      t = await agentOn(broker, { retainTerminalSeconds: 10 });
      const agent = t;
      await seedItem(agent, "NONE");
      const watcher = await subscribe(broker.url, [`${ROOT}/state/PICK/#`]);
      subs.push(watcher);
      await failedPicks(agent, "W-", 1);
      const topic = `${ROOT}/state/PICK/W-0`;
      await watcher.waitFor("the final state", () =>
        watcher.on(topic).some((m) => m.payload.includes("not_fulfillable")),
      );
      expect(await retainedTopics(broker.url)).toEqual(["state/PICK/W-0", "state/station"]);

      // The window passes on the agent's clock: the next sweep (within a second) clears the topic.
      agent.clock.now += 10_001;
      await watcher.waitFor("the topic cleared", () => watcher.on(topic).some((m) => m.payload === ""));
      await expect.poll(() => heldInDatabase(agent), { timeout: deadline(10_000) }).toBe(0);

      // A broker without persistence restarts: the agent republishes what is retained, not the cleared one.
      await broker.stop();
      await broker.start();
      await expect
        .poll(async () => (await retainedTopics(broker?.url as string)).includes("state/station"), {
          timeout: deadline(15_000),
        })
        .toBe(true);
      expect(await retainedTopics(broker.url)).toEqual(["state/station"]);
    },
    deadline(60_000),
  );
});
