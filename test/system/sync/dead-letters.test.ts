/**
 * Dead letters made for real (a broker that drops the connection on one message until the agent gives
 * up on it: `retries_exhausted`), listed by `pps-edge outbox` and the admin route, and sent again while
 * the agent runs: by the command line (the agent takes the request within a second) and over HTTP, in
 * seq order, ahead of what still waits, under their own notification_id (docs/mqtt.md#dead-letters).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TestAgent } from "../../support/agent.js";
import { runCli } from "../../support/cli.js";
import { deadline } from "../../support/deadline.js";
import { agentOn, notify, ROOT } from "../../support/sync/agent.js";
import { startAedes, type TestBroker } from "../../support/sync/brokers.js";
import type { Subscriber } from "../../support/sync/subscriber.js";

const seqOf = (payload: string) =>
  Number((JSON.parse(payload) as { notification_id: string }).notification_id.split(".").pop());
const arrived = (s: Subscriber) => s.on(`${ROOT}/notification`).map((m) => seqOf(m.payload));
const deadSeqs = (t: TestAgent) =>
  (t.agent.db.sqlite.prepare("SELECT seq FROM outbox_dead ORDER BY seq").all() as { seq: number }[]).map(
    (r) => r.seq,
  );

describe("dead letters are replayed while the agent runs", () => {
  let broker: TestBroker | undefined;
  let t: TestAgent | undefined;
  let central: Subscriber | undefined;
  afterEach(async () => {
    await central?.close();
    await t?.close();
    await broker?.close();
    central = t = broker = undefined;
  });

  /** 1 and 4 delivered, 2 and 3 dead (the broker dropped the connection on them until the agent gave up). */
  async function twoDead(): Promise<{ t: TestAgent; central: Subscriber; accept(): void }> {
    let refuse = true;
    broker = await startAedes({
      keepSessions: true,
      authorizePublish: (_client, packet, cb) =>
        cb(refuse && packet.payload.toString().includes("POISON") ? new Error("refused") : null),
    });
    central = await (broker.inside as NonNullable<TestBroker["inside"]>)(`${ROOT}/notification`);
    t = await agentOn(broker, { maxDeliveryAttempts: 2, inflightWindow: 4 });
    notify(t, "order_information", { n: 1 });
    notify(t, "order_information", { n: 2, note: "POISON" });
    notify(t, "order_information", { n: 3, note: "POISON" });
    notify(t, "order_information", { n: 4 });
    const c = central;
    await c.waitFor("1 and 4", () => arrived(c).includes(4), 15_000);
    const a = t;
    await vi.waitFor(() => expect(deadSeqs(a)).toEqual([2, 3]), { timeout: deadline(5000), interval: 20 });
    return { t, central: c, accept: () => (refuse = false) };
  }

  it(
    "pps-edge outbox lists them; outbox replay sends them again in seq order ahead of what waits",
    async () => {
      const { t, central, accept } = await twoDead();
      const env = { PPS_EDGE_DATA_DIR: t.dir };
      const listed = await runCli(["outbox"], env);
      expect(listed.code).toBe(0);
      expect(listed.out.split("\n").map((l) => l.split("\t").slice(0, 4))).toEqual([
        ["2", "order_information", "dc1.7.2", "retries_exhausted"],
        ["3", "order_information", "dc1.7.3", "retries_exhausted"],
      ]);
      const json = (await runCli(["outbox", "--json"], env)).out.split("\n").map((l) => JSON.parse(l));
      expect(json[0]).toMatchObject({ seq: 2, notificationId: "dc1.7.2", reason: "retries_exhausted" });

      // the broker is fixed but unreachable for now: 5 waits, then the replay goes ahead of it
      accept();
      await broker?.stop();
      notify(t, "order_information", { n: 5 });
      const before = arrived(central).length;
      const replay = await runCli(["outbox", "replay"], env);
      expect(replay.err).toBe("");
      expect(replay.code).toBe(0);
      expect(replay.out).toMatch(
        /^replayed 2 dead letters \(seq 2, 3\): the running agent \(pid \d+\) sends/,
      );
      expect(deadSeqs(t)).toEqual([]);
      await broker?.start();
      await central.waitFor("2, 3 and 5", () => arrived(central).includes(5), 15_000);
      expect(arrived(central).slice(before)).toEqual([2, 3, 5]);
      expect((await runCli(["outbox"], env)).out).toBe("no dead letters");
    },
    deadline(60_000),
  );

  it(
    "the admin route replays one while connected; an unknown seq or a live one is refused, nothing changed",
    async () => {
      const { t, central, accept } = await twoDead();
      accept();
      const cursor = () => t.agent.services.repos.outbox.cursor();
      // everything but the dead letters is delivered and recorded so
      await vi.waitFor(() => expect(cursor()).toBe(4), { timeout: deadline(5000), interval: 20 });
      const at = cursor();
      for (const [seqs, message] of [
        [[3, 99], /99 \(no such notification\)/],
        [[1], /1 \(delivered or waiting, not a dead letter\)/],
      ] as const) {
        const res = await t.call("POST", "/station/outbox/dead-letters/replay", { seqs });
        expect(res.status).toBe(404);
        const body = (await res.json()) as { code: string; message: string };
        expect(body.code).toBe("not_found");
        expect(body.message).toMatch(message);
        expect(deadSeqs(t)).toEqual([2, 3]);
        expect(cursor()).toBe(at);
      }
      expect((await t.call("POST", "/station/outbox/dead-letters/replay", { seqs: [0] })).status).toBe(400);
      const list = (await (await t.call("GET", "/station/outbox/dead-letters")).json()) as {
        deadLetters: { seq: number }[];
      };
      expect(list.deadLetters.map((d) => d.seq)).toEqual([2, 3]);

      const before = arrived(central).length;
      const res = await t.call("POST", "/station/outbox/dead-letters/replay", { seqs: [3] });
      expect(await res.json()).toEqual({ replayed: [3] });
      notify(t, "order_information", { n: 5 });
      await central.waitFor("3 and 5", () => arrived(central).includes(5), 15_000);
      expect(arrived(central).slice(before)).toEqual([3, 5]);
      expect(deadSeqs(t)).toEqual([2]);
    },
    deadline(60_000),
  );
});
