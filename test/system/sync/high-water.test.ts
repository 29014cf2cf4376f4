/**
 * The high-water mark (docs/mqtt.md#gaps-and-the-high-water-mark): the retained `state/station` carries
 * the sequence number of the newest notification the station produced, on connect and within a couple
 * of seconds of a burst's last notification, so central sees a gap at the end of a burst too.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { TestAgent } from "../../support/agent.js";
import { deadline } from "../../support/deadline.js";
import { agentOn, notify, ROOT } from "../../support/sync/agent.js";
import { startAedes, type TestBroker } from "../../support/sync/brokers.js";
import { type Subscriber, subscribe } from "../../support/sync/subscriber.js";

let broker: TestBroker | undefined;
let t: TestAgent | undefined;
const subs: Subscriber[] = [];
afterEach(async () => {
  for (const s of subs.splice(0)) await s.close();
  await t?.close();
  await broker?.close();
});

const marks = (s: Subscriber): number[] =>
  s
    .on(`${ROOT}/state/station`)
    .map((m) => (JSON.parse(m.payload) as { lastNotificationSeq: number }).lastNotificationSeq);

/** The sequence number `notification_id` ends with (`<site>.<ppsId>.<seq>`). */
const seqOf = (payload: string): number =>
  Number((JSON.parse(payload) as { notification_id: string }).notification_id.split(".").at(-1));

describe("the high-water mark in state/station", () => {
  it("is the newest notification's sequence number: 0 at first, then the last of a burst", async () => {
    broker = await startAedes();
    t = await agentOn(broker);
    const agent = t;
    const s = await subscribe(broker.url, [`${ROOT}/state/station`, `${ROOT}/notification`]);
    subs.push(s);
    await s.waitFor("the station state", () => marks(s).length > 0);
    expect(marks(s)[0]).toBe(0);

    for (let i = 0; i < 25; i++) notify(agent, "order_information", { burst: i });
    await s.waitFor("25 notifications", () => s.on(`${ROOT}/notification`).length >= 25);
    const last = Math.max(...s.on(`${ROOT}/notification`).map((m) => seqOf(m.payload)));
    expect(last).toBe(agent.agent.services.repos.outbox.lastSeq());
    // announced within the throttle (2 s), without one station message per notification
    await s.waitFor("the mark of the burst's last notification", () => marks(s).includes(last), 10_000);
    expect(marks(s).length).toBeLessThan(10);
  });

  it("a consumer arriving later reads it from the retained message", async () => {
    broker = await startAedes();
    t = await agentOn(broker);
    const agent = t;
    for (let i = 0; i < 3; i++) notify(agent, "bin_complete", { i });
    const last = agent.agent.services.repos.outbox.lastSeq();
    expect(last).toBe(3);
    await expect
      .poll(
        async () => {
          const late = await subscribe(broker?.url as string, [`${ROOT}/state/station`]);
          subs.push(late);
          await late.waitFor("retained station state", () => marks(late).length > 0);
          return marks(late)[0];
        },
        { timeout: deadline(10_000), interval: 500 },
      )
      .toBe(last);
  });
});
