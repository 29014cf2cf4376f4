import { rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../../support/agent.js";
import { buildAgent } from "../../support/build.js";
import { type BuiltAgentChild, killRunning, startBuiltAgent } from "../../support/child-agent.js";
import { deadline } from "../../support/deadline.js";
import { FAST, inOrderWithoutGaps, PPS, ROOT, SITE } from "../../support/sync/agent.js";
import { BROKERS, type TestBroker } from "../../support/sync/brokers.js";
import { type Subscriber, subscribe } from "../../support/sync/subscriber.js";

const N = 5000;
let build: { dist: string; remove(): void };

beforeAll(async () => {
  build = await buildAgent();
}, deadline(120_000));
afterAll(() => build?.remove());

const seqOf = (payload: string) =>
  Number((JSON.parse(payload) as { notification_id: string }).notification_id.split(".").pop());

for (const b of BROKERS) {
  describe(`agent killed with SIGKILL while notifications wait (${b.name})`, () => {
    let broker: TestBroker;
    let sub: Subscriber;
    let dataDir: string;
    const children: BuiltAgentChild[] = [];
    afterEach(async () => {
      await killRunning(children);
      await sub?.close();
      await broker?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it(
      "the Will says CONNECTION_BROKEN, and after a restart every notification is delivered in order",
      async () => {
        broker = await b.start();
        sub = broker.inside ? await broker.inside(`${ROOT}/#`) : await subscribe(broker.url, [`${ROOT}/#`]);
        dataDir = tempDir();
        const config = (window: number) => ({
          dataDir,
          site: SITE,
          ppsId: PPS,
          clientSecret: "child-client-secret",
          adminPassword: "child-admin-password",
          http: { host: "127.0.0.1", port: 0 },
          log: { level: "silent" },
          mqtt: { url: broker.url, protocolVersion: broker.protocolVersion, ...FAST, inflightWindow: window },
        });
        const notifications = () => sub.on(`${ROOT}/notification`).map((m) => m.payload);
        // Counted as messages arrive: re-reading thousands of payloads on every message would be quadratic.
        const distinct = new Set<number>();
        let scanned = 0;
        const distinctCount = () => {
          for (; scanned < sub.messages.length; scanned++) {
            const m = sub.messages[scanned];
            if (m?.topic === `${ROOT}/notification`) distinct.add(seqOf(m.payload));
          }
          return distinct.size;
        };
        const connection = () =>
          sub
            .on(`${ROOT}/connection`)
            .map((m) => JSON.parse(m.payload) as { state: string; session: number });

        // One in flight at a time, so the drain is still running when the process dies.
        const first = await startBuiltAgent(build.dist, config(1), N);
        children.push(first);
        await sub.waitFor("the drain under way", () => distinctCount() >= 300);
        await first.kill();

        await sub.waitFor("the Will", () => connection().some((c) => c.state === "CONNECTION_BROKEN"));
        const online = connection().find((c) => c.state === "ONLINE");
        expect(connection().find((c) => c.state === "CONNECTION_BROKEN")?.session).toBe(online?.session);
        expect(connection().some((c) => c.state === "OFFLINE")).toBe(false);

        const db = new Database(join(dataDir, "pps-edge.db"), { readonly: true });
        // Undelivered: above the delivery cursor and not moved aside (src/db/outbox.repo.ts).
        const watermark = Number(
          (
            db.prepare("SELECT value FROM settings WHERE key = 'mqtt.deliveredSeq'").get() as
              | { value: string }
              | undefined
          )?.value ?? 0,
        );
        const waiting = (
          db
            .prepare("SELECT count(*) AS n FROM outbox WHERE delivered_at IS NULL AND seq > ?")
            .get(watermark) as {
            n: number;
          }
        ).n;
        const committed = (
          db.prepare("SELECT envelope FROM outbox ORDER BY seq").all() as Array<{ envelope: string }>
        ).map((r) => r.envelope);
        db.close();
        expect(committed).toHaveLength(N);
        expect(waiting).toBeGreaterThan(0);
        expect(distinctCount()).toBeLessThan(N);

        const second = await startBuiltAgent(build.dist, config(64), 0);
        children.push(second);
        await sub.waitFor(`all ${N}`, () => distinctCount() >= N, 30_000);
        expect(inOrderWithoutGaps(notifications())).toEqual(committed);

        await second.stop();
        await sub.waitFor("OFFLINE", () => connection().some((c) => c.state === "OFFLINE"));
        expect(connection().at(-1)?.session).toBeGreaterThan(online?.session as number);
      },
      deadline(60_000),
    );
  });
}
