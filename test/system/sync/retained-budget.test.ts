/**
 * Retained request state is bounded (docs/limits.md, docs/mqtt.md#retained-state): a request's state
 * over `mqtt.retainedStateMaxBytes` is retained as a summary, and the embedded broker keeps at most
 * `mqtt.embeddedRetainedMaxMessages` topics and `mqtt.embeddedRetainedMaxBytes`, also after a restart.
 * Real broker, real subscriber.
 */
import mqtt from "mqtt";
import { afterEach, describe, expect, it } from "vitest";
import type { TestAgent } from "../../support/agent.js";
import { deadline, until } from "../../support/deadline.js";
import { ok, pickBody, pickLine, SR, seedItem, setStock } from "../../support/station.js";
import { agentOn, CENTRAL, ROOT } from "../../support/sync/agent.js";
import { type Received, subscribe } from "../../support/sync/subscriber.js";

let t: TestAgent | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** The retained `state/` messages a consumer arriving now is given. */
async function retained(url: string): Promise<Received[]> {
  const late = await subscribe(url, [`${ROOT}/state/#`, `${ROOT}/response/sentinel`], CENTRAL);
  try {
    const sender = await mqtt.connectAsync(url, { ...CENTRAL, protocolVersion: 4 });
    await sender.subscribeAsync(`${ROOT}/response/sentinel`);
    await sender.endAsync();
    // Retained messages are queued on subscribing and come as one burst: taken once some came and none
    // more for half a second.
    let seen = -1;
    let quietSince = Date.now();
    await until("the retained messages", () => {
      if (late.messages.length !== seen) {
        seen = late.messages.length;
        quietSince = Date.now();
      }
      return seen > 0 && Date.now() - quietSince >= 500;
    });
    return late.messages.filter((m) => m.retain && m.payload !== "");
  } finally {
    await late.close();
  }
}

const LIMITS = {
  retainedStateMaxBytes: 4096,
  embeddedRetainedMaxMessages: 20,
  embeddedRetainedMaxBytes: 64 * 1024,
};

describe("retained request state is bounded", () => {
  it(
    "a large request is retained as a summary; the broker holds at most its count and bytes, also after a restart",
    async () => {
      t = await agentOn("embedded", LIMITS);
      const agent = t;
      await seedItem(agent, "A");
      await setStock(agent, "S1", "M1", "A", 10_000);
      // 5 picks of 60 lines each: ~20 KB of state apiece
      for (let i = 0; i < 5; i++) {
        const lines = Array.from({ length: 60 }, (_, k) => pickLine(`BIG-${i}-${k}`, "A", 1));
        await ok(agent.call("POST", SR, pickBody(`BIG-${i}`, lines)));
      }
      // and 40 small ones: more topics than the broker keeps
      for (let i = 0; i < 40; i++)
        await ok(agent.call("POST", SR, pickBody(`S-${i}`, [pickLine(`S-${i}-1`, "A", 1)])));

      const check = (msgs: Received[]) => {
        const big = msgs.filter((m) => m.topic.includes("/state/PICK/BIG-"));
        for (const m of big) {
          expect(Buffer.byteLength(m.payload)).toBeLessThanOrEqual(LIMITS.retainedStateMaxBytes);
          expect(JSON.parse(m.payload)).toMatchObject({ stateTruncated: { limit: 4096 } });
        }
        expect(msgs.length).toBeLessThanOrEqual(LIMITS.embeddedRetainedMaxMessages);
        const bytes = msgs.reduce((n, m) => n + Buffer.byteLength(m.payload), 0);
        expect(bytes).toBeLessThanOrEqual(LIMITS.embeddedRetainedMaxBytes);
      };
      let first: Received[] = [];
      await until("a big pick's retained state", async () => {
        first = await retained(agent.agent.sync.url as string);
        return first.some((m) => m.topic.includes("/state/PICK/BIG-"));
      });
      check(first);

      // a restart republishes everything: still within the bounds
      await agent.agent.stop();
      await agent.agent.start(true);
      await new Promise((r) => setTimeout(r, 1500));
      check(await retained(agent.agent.sync.url as string));
    },
    deadline(60_000),
  );
});
