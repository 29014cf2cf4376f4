import { afterEach, describe, expect, it } from "vitest";
import type { TestAgent } from "../../support/agent.js";
import { agentOn, ROOT } from "../../support/sync/agent.js";
import { hasMosquitto, startAedes, startMosquitto, type TestBroker } from "../../support/sync/brokers.js";
import { type Subscriber, subscribe } from "../../support/sync/subscriber.js";

interface ConnectionMessage {
  state: string;
  session: number;
}

const connection = (s: Subscriber): ConnectionMessage[] =>
  s.on(`${ROOT}/connection`).map((m) => JSON.parse(m.payload) as ConnectionMessage);

// Brokers without persistence: a restart loses every retained message (docs/mqtt.md#retained-state).
const brokers = [
  { name: "aedes", start: () => startAedes() },
  ...(hasMosquitto ? [{ name: "mosquitto", start: () => startMosquitto({ persistence: false }) }] : []),
];

for (const b of brokers) {
  describe(`retained state across a broker restart (${b.name})`, () => {
    let broker: TestBroker;
    let t: TestAgent;
    const subs: Subscriber[] = [];
    afterEach(async () => {
      for (const s of subs.splice(0)) await s.close();
      await t?.close();
      await broker?.close();
    });

    it("connection reads ONLINE again with a new session, and state/station is back", async () => {
      broker = await b.start();
      t = await agentOn(broker);
      const watcher = await subscribe(broker.url, [`${ROOT}/connection`]);
      subs.push(watcher);
      await watcher.waitFor("ONLINE", () => connection(watcher).some((c) => c.state === "ONLINE"));
      const first = connection(watcher).find((c) => c.state === "ONLINE") as ConnectionMessage;

      await broker.stop();
      await broker.start();
      await watcher.waitFor("ONLINE after the restart", () =>
        connection(watcher).some((c) => c.state === "ONLINE" && c.session > first.session),
      );

      // A consumer that arrives now reads the retained messages the agent published again.
      const late = await subscribe(broker.url, [`${ROOT}/connection`, `${ROOT}/state/#`]);
      subs.push(late);
      await late.waitFor("retained connection and station state", (m) => m.length >= 2);
      const retained = late.messages.filter((m) => m.retain);
      expect(retained.map((m) => m.topic).sort()).toEqual([`${ROOT}/connection`, `${ROOT}/state/station`]);
      expect(connection(late)[0]).toMatchObject({ state: "ONLINE" });
      expect(connection(late)[0]?.session).toBeGreaterThan(first.session);
      expect(JSON.parse(late.on(`${ROOT}/state/station`)[0]?.payload as string)).toMatchObject({
        mode: "pick",
      });
    });

    it("state/station is republished when the station changes, and a clean stop says OFFLINE", async () => {
      broker = await b.start();
      t = await agentOn(broker);
      const s = await subscribe(broker.url, [`${ROOT}/connection`, `${ROOT}/state/station`]);
      subs.push(s);
      await s.waitFor("ONLINE", () => connection(s).some((c) => c.state === "ONLINE"));
      await s.waitFor("station state", () => s.on(`${ROOT}/state/station`).length >= 1);

      const { station } = t.agent.services.repos;
      station.setMode("put", Date.now());
      t.agent.services.bus.emit("station", {});
      await s.waitFor("station state in put mode", () =>
        s.on(`${ROOT}/state/station`).some((m) => (JSON.parse(m.payload) as { mode: string }).mode === "put"),
      );

      const online = connection(s).find((c) => c.state === "ONLINE") as ConnectionMessage;
      await t.close();
      await s.waitFor("OFFLINE", () => connection(s).some((c) => c.state === "OFFLINE"));
      expect(connection(s).at(-1)).toMatchObject({ state: "OFFLINE", session: online.session });
      // A clean DISCONNECT: the broker does not send the Will.
      expect(connection(s).some((c) => c.state === "CONNECTION_BROKEN")).toBe(false);
    });
  });
}
