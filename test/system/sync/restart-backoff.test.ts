/**
 * A broker restarted soon after the station connected is not flapping
 * (docs/mqtt.md#backoff-and-reconnects): the connects it refuses while it is away are retried within
 * `reconnectMaxMs`, so the station publishes again within that of the broker's return, whatever the age
 * of the connection it lost, and also after an earlier such restart (whose step no longer carries
 * over). A broker that accepts the station and drops it, again and again, is still backed off from,
 * past `reconnectMaxMs` and at every node of its list.
 */
import { afterEach, describe, expect, it } from "vitest";
import { flapsBeforeBackoff } from "../../../src/domain/backoff.js";
import type { TestAgent } from "../../support/agent.js";
import { deadline, until } from "../../support/deadline.js";
import { agentOn, notify } from "../../support/sync/agent.js";
import { hasMosquitto, startAedes, startMosquitto, type TestBroker } from "../../support/sync/brokers.js";
import { type ScriptedBroker, startScriptedBroker } from "../../support/sync/scripted-broker.js";

/** The product's reconnect steps (docs/configuration.md), not the tests' fast ones. */
const DEFAULTS = { reconnectMinMs: 1000, reconnectMaxMs: 4000, reconnectFlappingMaxMs: 60_000 };
const sleep = (ms: number) => new Promise<void>((ok) => setTimeout(ok, ms));

/** Restarted brokers that lose every session: aedes (what the embedded broker runs) and Mosquitto. */
const RESTARTED: Array<{ name: string; start: () => Promise<TestBroker> }> = [
  { name: "aedes", start: () => startAedes() },
  ...(hasMosquitto ? [{ name: "mosquitto", start: () => startMosquitto() }] : []),
];

for (const b of RESTARTED) {
  describe(`a broker restarted 3 s after the station connected (${b.name})`, () => {
    let broker: TestBroker | undefined;
    let t: TestAgent | undefined;
    afterEach(async () => {
      await t?.close();
      await broker?.close();
    });

    it(
      "the station publishes again within reconnectMaxMs of its return, twice in a row",
      async () => {
        broker = await b.start();
        const agent = await agentOn(broker, DEFAULTS);
        t = agent;
        const { outbox } = agent.agent.services.repos;
        const connected = () => agent.agent.sync.status().connected;
        const lags: { connected: number; published: number }[] = [];
        // the second round is the carry-over: a restart soon after the station came back from one
        for (const round of [1, 2]) {
          await until(`connected (round ${round})`, connected, 10_000);
          await sleep(3000);
          // the agent's clock says so too: a 3 s connection, short of a stable one (10 s)
          agent.clock.now += 3000;
          await broker.stop();
          await until(`the loss noticed (round ${round})`, () => !connected(), 10_000);
          notify(agent, "order_information", { round, state: "fulfillable" });
          await sleep(5000);
          await broker.start();
          const back = Date.now();
          let connectedAfter: number | undefined;
          // a deadline that only catches a hang; the bound is the assertion below
          await until(
            `the notification of round ${round} acknowledged by the broker`,
            () => {
              if (connectedAfter === undefined && connected()) connectedAfter = Date.now() - back;
              return outbox.undeliveredCount() === 0;
            },
            20_000,
            { everyMs: 20, seen: () => `${outbox.undeliveredCount()} undelivered` },
          );
          lags.push({ connected: connectedAfter ?? Date.now() - back, published: Date.now() - back });
        }
        console.log(`${b.name}: after the broker's return (ms), per round: ${JSON.stringify(lags)}`);
        // the longest wait a station can draw while refused, and slack for this machine (a deadline)
        for (const lag of lags)
          expect(lag.published).toBeLessThanOrEqual(DEFAULTS.reconnectMaxMs + deadline(1000));
      },
      deadline(60_000),
    );
  });
}

describe("a broker that accepts the station and drops it at once, again and again", () => {
  const nodes: ScriptedBroker[] = [];
  let t: TestAgent | undefined;
  afterEach(async () => {
    await t?.close();
    for (const n of nodes.splice(0)) await n.close();
  });

  /** Short steps, with the flapping ceiling far above reconnectMaxMs. */
  const STEPS = { reconnectMinMs: 100, reconnectMaxMs: 400, reconnectFlappingMaxMs: 60_000 };
  /** Enough connects for the last two gaps to be held past reconnectMaxMs, however many nodes. */
  const connectsFor = (count: number) => 6 + flapsBeforeBackoff(count);

  it.each([1, 2])(
    "the connects spread out past reconnectMaxMs (%i node(s))",
    async (count) => {
      // CONNACK, then the connection closed on the station's first packet: a kick
      for (let i = 0; i < count; i++) nodes.push(await startScriptedBroker(() => "close"));
      const [first, ...others] = nodes as [ScriptedBroker, ...ScriptedBroker[]];
      const connects = () =>
        nodes
          .flatMap((n) => n.receivedAt.filter((_, i) => n.packets[i]?.cmd === "connect"))
          .sort((x, y) => x - y);
      t = await agentOn(first, { ...STEPS, failoverUrls: others.map((n) => n.url), failbackAfterMs: 0 });
      const wanted = connectsFor(count);
      await until(`${wanted} connects`, () => connects().length >= wanted, 20_000, {
        seen: () => `${connects().length} so far`,
      });
      const at = connects().slice(0, wanted);
      const gaps = at.slice(1).map((x, i) => x - (at[i] as number));
      console.log(`${count} node(s): gaps between connects (ms): ${JSON.stringify(gaps)}`);
      // From the second loss in a row on one node (on two, the third: every node has dropped the
      // station once, src/domain/backoff.ts, flapsBeforeBackoff), each retry waits at least half its
      // step, which doubles from reconnectMinMs per loss: at least 50, 100, 200, 400, 800, 1600 ms, the
      // last two past reconnectMaxMs. A busy machine only lengthens a gap; a loop held to
      // reconnectMaxMs, or not backed off at another node, would come every 0.1-0.4 s.
      const threshold = flapsBeforeBackoff(count);
      const floors = gaps.map((_, i) =>
        i + 1 < threshold ? 0 : (STEPS.reconnectMinMs * 2 ** (i + 1 - threshold)) / 2,
      );
      expect(gaps.map((g, i) => (g >= (floors[i] as number) ? "held" : `${g} ms`))).toEqual(
        Array(gaps.length).fill("held"),
      );
    },
    deadline(30_000),
  );
});
