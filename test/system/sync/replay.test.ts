/**
 * `request/replay_notifications` over real brokers (docs/mqtt.md#replaying-notifications): pages of the
 * envelopes byte for byte as they went out on `notification`, bad input refused like any request, a gap
 * made on purpose repaired, and the ordered topic and the delivery cursor left alone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestAgent } from "../../support/agent.js";
import { deadline } from "../../support/deadline.js";
import {
  agentOn,
  ask,
  CENTRAL,
  centralOn,
  committed,
  inOrderWithoutGaps,
  notify,
  ROOT,
} from "../../support/sync/agent.js";
import { hasMosquitto, startMosquitto, type TestBroker } from "../../support/sync/brokers.js";
import { type Subscriber, subscribe } from "../../support/sync/subscriber.js";

interface Page {
  notifications: Array<{ seq: number; payload: string }>;
  next_after: number;
  more: boolean;
  last_seq: number;
  first_available_seq: number | null;
}
interface Answer {
  transaction: string | number | null;
  status: "ok" | "error";
  data: Page;
  error: { status: number; code: string; errors: Array<{ path: string }> } | null;
}

const NOTE = `${ROOT}/notification`;
const seqOf = (payload: string): number =>
  Number((JSON.parse(payload) as { notification_id: string }).notification_id.split(".").at(-1));

for (const target of ["embedded", ...(hasMosquitto ? ["mosquitto" as const] : [])] as const) {
  describe(`replay_notifications (${target})`, () => {
    let broker: TestBroker | undefined;
    let t: TestAgent;
    let url: string;
    /** Central's link: asks and reads the answers; `stream` watches the ordered topic throughout. */
    let central: Subscriber;
    let stream: Subscriber;
    let txn = 0;
    const replay = async (body: Record<string, unknown>) =>
      JSON.parse(
        await ask(central, "replay_notifications", { transaction: `r-${++txn}`, ...body }),
      ) as Answer;
    const produce = async (n: number) => {
      for (let i = 0; i < n; i++) notify(t, "order_information", { i, note: 'quote " é ✓' });
      const total = committed(t).length;
      await stream.waitFor(`${total} notifications`, () => stream.on(NOTE).length >= total);
    };

    beforeAll(async () => {
      broker = target === "mosquitto" ? await startMosquitto() : undefined;
      t = await agentOn(broker ?? "embedded");
      url = t.agent.sync.url as string;
      stream = await subscribe(url, [NOTE], CENTRAL);
      central = await subscribe(url, [`${ROOT}/response/#`, `${ROOT}/connection`], CENTRAL);
      await central.waitFor("ONLINE", (m) => m.some((x) => x.payload.includes('"ONLINE"')));
    });
    afterAll(async () => {
      await central?.close();
      await stream?.close();
      await t?.close();
      await broker?.close();
    });

    it("pages by limit: next_after, more, last_seq, the envelopes exactly as received on notification", async () => {
      await produce(25);
      const received = stream.on(NOTE).map((m) => m.payload);
      const first = await replay({ after: 0, limit: 10 });
      expect(first).toMatchObject({ transaction: `r-${txn}`, status: "ok", error: null });
      expect(first.data).toMatchObject({ next_after: 10, more: true, last_seq: 25, first_available_seq: 1 });
      expect(first.data.notifications.map((n) => n.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(first.data.notifications.map((n) => n.payload)).toEqual(received.slice(0, 10));
      for (const n of first.data.notifications) expect(seqOf(n.payload)).toBe(n.seq);

      const second = await replay({ after: 10, limit: 10 });
      expect(second.data.notifications.map((n) => n.payload)).toEqual(received.slice(10, 20));
      const last = await replay({ after: second.data.next_after });
      expect(last.data.notifications.map((n) => n.payload)).toEqual(received.slice(20, 25));
      expect(last.data).toMatchObject({ next_after: 25, more: false, last_seq: 25 });
      const none = await replay({ after: 25, limit: 500 });
      expect(none.data).toMatchObject({ notifications: [], next_after: 25, more: false });
    });

    it.each([
      ["after negative", { after: -1 }, "after"],
      ["after not an integer", { after: 1.5 }, "after"],
      ["after a string", { after: "3" }, "after"],
      ["after missing", { limit: 5 }, "after"],
      ["limit 0", { after: 0, limit: 0 }, "limit"],
      ["limit 501", { after: 0, limit: 501 }, "limit"],
      ["part negative", { after: 0, part: -1 }, "part"],
      ["part not an integer", { after: 0, part: 0.5 }, "part"],
      ["an unknown member", { after: 0, since: 3 }, "(body)"],
    ])("refuses %s with validation_failed naming the field", async (_what, body, field) => {
      const r = await replay(body);
      expect(r).toMatchObject({
        transaction: `r-${txn}`,
        status: "error",
        data: {},
        error: { status: 400, code: "validation_failed" },
      });
      expect(r.error?.errors.map((e) => e.path)).toContain(field);
    });

    it("a consumer that missed some sees the gap and repairs it by replay; the ordered topic is untouched", async () => {
      const outbox = t.agent.services.repos.outbox;
      // a consumer that drops off for a while: what it gets, it keeps
      let away = await subscribe(url, [NOTE], CENTRAL);
      await produce(5);
      await away.waitFor("the first 5", () => away.on(NOTE).length >= 5);
      const got = away.on(NOTE).map((m) => m.payload);
      await away.close();
      await produce(7); // missed
      away = await subscribe(url, [NOTE], CENTRAL);
      await produce(4);
      await away.waitFor("the last 4", () => away.on(NOTE).length >= 4);
      const later = away.on(NOTE).map((m) => m.payload);
      await away.close();

      const highest = seqOf(got.at(-1) as string);
      expect(seqOf(later[0] as string)).toBe(highest + 8); // the gap: 7 missing
      // every notification delivered and recorded: from here on the cursor has no reason to move
      await expect.poll(() => outbox.cursor(), { timeout: deadline(5000) }).toBe(outbox.lastSeq());
      const cursor = outbox.cursor();
      const repaired: string[] = [];
      let after = highest;
      for (;;) {
        const page = (await replay({ after, limit: 3 })).data;
        repaired.push(...page.notifications.map((n) => n.payload));
        after = page.next_after;
        if (after >= seqOf(later[0] as string) - 1) break;
      }
      const mine = [...got, ...repaired.filter((p) => seqOf(p) < seqOf(later[0] as string)), ...later];
      expect(mine).toEqual(committed(t).slice(highest - 5));
      // nothing was published on notification for it, and the cursor did not move
      expect(stream.on(NOTE).map((m) => m.payload)).toEqual(committed(t));
      expect(outbox.cursor()).toBe(cursor);
    });

    it("replays while notifications stream: the stream stays in order, without extras", async () => {
      const asked: Array<Promise<Answer>> = [];
      for (let i = 0; i < 120; i++) {
        notify(t, "bin_complete", { i });
        if (i % 20 === 0) asked.push(replay({ after: i, limit: 50 }));
        if (i % 10 === 0) await new Promise<void>((ok) => setImmediate(ok));
      }
      for (const a of await Promise.all(asked)) expect(a.status).toBe("ok");
      const all = committed(t);
      await stream.waitFor(`${all.length} notifications`, () => stream.on(NOTE).length >= all.length);
      const payloads = stream.on(NOTE).map((m) => m.payload);
      expect(payloads).toHaveLength(all.length);
      expect(inOrderWithoutGaps(payloads)).toEqual(all);
    });
  });
}

describe("replay_notifications by the integration role (embedded broker ACL)", () => {
  let t: TestAgent;
  let central: Subscriber;
  beforeAll(async () => {
    t = await agentOn("embedded");
    await t.agent.services.auth.addUser("central", "a-long-test-password", "integration");
    central = await subscribe(t.agent.sync.url as string, [`${ROOT}/response/#`, `${ROOT}/connection`], {
      username: "central",
      password: "a-long-test-password",
    });
    await central.waitFor("ONLINE", (m) => m.some((x) => x.payload.includes('"ONLINE"')));
  });
  afterAll(async () => {
    await central?.close();
    await t?.close();
  });

  it("may ask and reads the answer", async () => {
    notify(t, "order_information", { i: 1 });
    const r = JSON.parse(await ask(central, "replay_notifications", { transaction: 1, after: 0 })) as Answer;
    expect(r).toMatchObject({ transaction: 1, status: "ok", data: { last_seq: 1, more: false } });
    expect(r.data.notifications.map((n) => n.payload)).toEqual(committed(t));
  });
});

describe("replay_notifications answers fit one message (mqtt.maxMessageBytes 4096)", () => {
  let t: TestAgent;
  let central: Subscriber;
  beforeAll(async () => {
    t = await agentOn("embedded", { maxMessageBytes: 4096 });
    central = await centralOn(t);
  });
  afterAll(async () => {
    await central?.close();
    await t?.close();
  });

  it("pages by bytes, and a notification larger than any answer is listed as skipped, not a dead end", async () => {
    for (let i = 0; i < 12; i++) notify(t, "order_information", { i, pad: "p".repeat(i === 5 ? 6000 : 700) });
    const all = committed(t);
    const got: string[] = [];
    const skipped: number[] = [];
    let after = 0;
    for (let n = 0; ; n++) {
      expect(n).toBeLessThan(20);
      const text = await ask(central, "replay_notifications", { transaction: `b-${n}`, after, limit: 500 });
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(4096);
      const page = (JSON.parse(text) as Answer).data as Page & {
        skipped?: Array<{ seq: number; bytes: number }>;
      };
      got.push(...page.notifications.map((x) => x.payload));
      skipped.push(...(page.skipped ?? []).map((x) => x.seq));
      after = page.next_after;
      if (!page.more) break;
    }
    expect(skipped).toEqual([6]);
    expect(got).toEqual(all.filter((_, i) => i !== 5));
  });
});
