import { afterEach, describe, expect, it } from "vitest";
import type { TestAgent } from "../../support/agent.js";
import { deadline } from "../../support/deadline.js";
import { agentOn, committed, inOrderWithoutGaps, notify, ROOT } from "../../support/sync/agent.js";
import { BROKERS, type TestBroker } from "../../support/sync/brokers.js";
import { type Subscriber, subscribe } from "../../support/sync/subscriber.js";

const N = 600;
const tick = () => new Promise<void>((ok) => setImmediate(ok));

for (const b of BROKERS) {
  describe(`broker outage during a stream of changes (${b.name})`, () => {
    let broker: TestBroker;
    let t: TestAgent;
    let sub: Subscriber;
    afterEach(async () => {
      await sub?.close();
      await t?.close();
      await broker?.close();
    });

    it(
      "every notification arrives, in order, none missing, after the broker comes back",
      async () => {
        broker = await b.start();
        // Central keeps its subscription through the outage: a durable session on Mosquitto (persisted
        // across its restart), a consumer inside the broker for aedes (whose in-memory durable sessions
        // interleave their backlog with live messages on reconnect).
        sub = broker.inside
          ? await broker.inside(`${ROOT}/#`)
          : await subscribe(broker.url, [`${ROOT}/notification`, `${ROOT}/connection`], {
              clientId: `central-${b.name}`,
              clean: false,
            });
        t = await agentOn(broker, { inflightWindow: 16 });
        await sub.waitFor("ONLINE", (m) => m.some((x) => x.payload.includes('"ONLINE"')));

        let stoppedAt = 0;
        for (let i = 1; i <= N; i++) {
          notify(t, "order_information", { externalServiceRequestId: `ORD-${i}`, state: "fulfillable" });
          if (i % 10 === 0) await tick();
          if (i === 200) {
            await broker.stop();
            stoppedAt = sub.on(`${ROOT}/notification`).length;
          }
          if (i === 400) await broker.start();
        }
        const expected = committed(t);
        expect(expected).toHaveLength(N);
        // The outage really cut the stream: some were still to come when the broker stopped.
        expect(stoppedAt).toBeLessThan(N);

        await sub.waitFor(`${N} distinct notifications`, (m) => {
          const ids = new Set(m.filter((x) => x.topic === `${ROOT}/notification`).map((x) => x.payload));
          return ids.size >= N;
        });
        const payloads = sub.on(`${ROOT}/notification`).map((m) => m.payload);
        expect(inOrderWithoutGaps(payloads)).toEqual(expected);
      },
      deadline(30_000),
    );
  });
}
