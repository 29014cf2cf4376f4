import { afterEach, describe, expect, it } from "vitest";
import type { TestAgent } from "../../support/agent.js";
import { deadline, until } from "../../support/deadline.js";
import { assertInOrder, type Receiver, startReceiver } from "../../support/webhook-receiver.js";
import { commit, endpoint, realClock, webhookAgent } from "./support.js";

describe("webhook delivery to a real receiver", () => {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
  });
  async function receiver(): Promise<Receiver> {
    const r = await startReceiver();
    open.push(r);
    return r;
  }
  async function agent(...args: Parameters<typeof webhookAgent>): Promise<TestAgent> {
    const t = await webhookAgent(...args);
    open.push(t);
    return t;
  }

  it("signs every delivery so the standardwebhooks verifier accepts it, with the headers of the spec", async () => {
    const r = await receiver();
    const t = await agent([endpoint("central", r.url)]);
    commit(t, 20);
    await r.waitFor(20);
    expect(r.unverified).toEqual([]);
    const first = r.accepted[0];
    expect(first?.headers["webhook-id"]).toBe(first?.id);
    expect(first?.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    expect(Math.abs(Number(first?.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);
    // the body is the envelope exactly as committed (and as MQTT publishes it)
    const committed = t.agent.services.repos.outbox.after(0, 100).map((row) => row.envelope);
    expect(r.accepted.map((a) => a.body)).toEqual(committed);
  });

  it(
    "after 500s, timeouts, Retry-After and slow answers every notification arrives once, in order",
    async () => {
      const r = await receiver();
      // a fixed, varied pattern of failures on the first attempts of many notifications
      const failures = new Map<number, number>();
      r.script = (got, n) => {
        const seen = failures.get(got.seq) ?? 0;
        failures.set(got.seq, seen + 1);
        if (seen >= 2) return { status: 200 };
        switch (got.seq % 7) {
          case 1:
            return { status: 500 };
          case 2:
            return seen === 0 ? { hang: true } : { status: 204 };
          case 3:
            return { status: 429, retryAfter: "0" };
          case 4:
            return { status: 302 };
          case 5:
            return { status: 200, delayMs: 30 };
          default:
            return n % 11 === 0 ? { status: 503 } : { status: 202 };
        }
      };
      const t = await agent([endpoint("central", r.url)]);
      commit(t, 60);
      await r.waitFor(60, 30_000);
      expect(r.unverified).toEqual([]);
      assertInOrder(r.accepted);
      expect(r.accepted.map((a) => a.seq)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
      // retries carry the same webhook-id, and never overtake: requests arrive in seq order
      for (let i = 1; i < r.requests.length; i++)
        expect(r.requests[i]?.seq).toBeGreaterThanOrEqual(r.requests[i - 1]?.seq as number);
      // the receiver has the 60th before the agent has read its answer and counted it
      let metrics = "";
      await until("the 60 deliveries counted", async () => {
        metrics = await t.agent.metrics.render();
        return /webhook_delivered_total\{endpoint="central"\} 60/.test(metrics);
      });
      expect(metrics).toMatch(/webhook_retried_total\{endpoint="central"\} [1-9]/);
      expect(metrics).toMatch(/webhook_failed_total\{endpoint="central",reason="timeout"\} [1-9]/);
    },
    deadline(40_000),
  );

  it("two endpoints with different filters each get their types, in order", async () => {
    const all = await receiver();
    const bins = await receiver();
    const t = await agent([
      endpoint("all", all.url),
      endpoint("bins", bins.url, { types: ["bin_complete"] }),
    ]);
    for (let i = 0; i < 10; i++) {
      commit(t, 2, "order_information");
      commit(t, 1, "bin_complete");
    }
    await all.waitFor(30);
    await bins.waitFor(10);
    assertInOrder(all.accepted);
    assertInOrder(bins.accepted);
    expect(new Set(bins.accepted.map((a) => a.type))).toEqual(new Set(["bin_complete"]));
    expect(bins.accepted.map((a) => a.seq)).toEqual(Array.from({ length: 10 }, (_, i) => 3 * (i + 1)));
  });

  it("410 disables the endpoint at once; it keeps its cursor, and enabled again it goes on from there", async () => {
    const r = await receiver();
    let gone = true;
    r.script = (got) => (gone && got.seq === 3 ? { status: 410 } : { status: 204 });
    const t = await agent([endpoint("central", r.url)]);
    commit(t, 5);
    await r.waitFor(2);
    const end = Date.now() + deadline(5000);
    let view: { enabled: boolean; disabledReason: string | null; deliveredSeq: number } | undefined;
    while (Date.now() < end) {
      view = (await (await t.call("GET", "/station/webhooks/central")).json()) as typeof view;
      if (view && !view.enabled) break;
      await new Promise((ok) => setTimeout(ok, 20));
    }
    expect(view).toMatchObject({ enabled: false, disabledReason: "gone", deliveredSeq: 2 });
    expect(r.requests.filter((q) => q.seq === 3)).toHaveLength(1); // no retry after a 410
    const ready = (await (await t.request("/readyz")).json()) as {
      checks: Record<string, { detail: string }>;
    };
    expect(ready.checks.webhooks?.detail).toContain("central DISABLED (gone)");
    const events = (await (await t.call("GET", "/station/security-events?kind=webhook_disabled")).json()) as {
      events: Array<{ detail: Record<string, unknown> }>;
    };
    expect(events.events[0]?.detail).toMatchObject({ endpoint: "central", reason: "gone", seq: 3 });

    gone = false;
    const res = await t.call("POST", "/station/webhooks/central/enable");
    expect(res.status).toBe(200);
    await r.waitFor(5);
    assertInOrder(r.accepted);
    expect(r.accepted.map((a) => a.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it("a dead endpoint slows neither the other endpoint nor MQTT", async () => {
    const live = await receiver();
    const dead = await receiver();
    dead.script = () => ({ hang: true });
    const t = await agent(
      [endpoint("dead", dead.url), endpoint("live", live.url)],
      {},
      { url: "embedded", embeddedPort: 0, embeddedAnonymous: true },
    );
    const started = Date.now();
    commit(t, 200);
    await live.waitFor(200);
    const outbox = t.agent.services.repos.outbox;
    await until("the MQTT outbox drained", () => outbox.undeliveredCount() === 0, 10_000);
    // Behind the dead endpoint, one 500 ms timeout per notification would take 100 s; the deadline of
    // an idle machine's 5 s, stretched for this one, stays far below that.
    expect(Date.now() - started).toBeLessThan(deadline(5_000));
    expect(dead.accepted).toHaveLength(0);
    assertInOrder(live.accepted);
  });

  it("replays a range to one endpoint, in order, then goes on with new notifications", async () => {
    const r = await receiver();
    const t = await agent([endpoint("central", r.url)]);
    commit(t, 10);
    await r.waitFor(10);
    const res = await t.call("POST", "/station/webhooks/central/replay", { from: 3, to: 6 });
    expect(res.status).toBe(200);
    const end = Date.now() + deadline(5000);
    while (r.requests.length < 14 && Date.now() < end) await new Promise((ok) => setTimeout(ok, 20));
    expect(r.requests.slice(10).map((q) => q.seq)).toEqual([3, 4, 5, 6]);
    commit(t, 2);
    await r.waitFor(12);
    expect(r.requests.slice(14).map((q) => q.seq)).toEqual([11, 12]);
  });

  it("an endpoint failing past the horizon is disabled with an alarm, its cursor kept", async () => {
    const r = await receiver();
    r.script = () => ({ status: 503 });
    const t = await agent([endpoint("central", r.url)], { horizonHours: 72 });
    const offset = realClock(t);
    commit(t, 3);
    const end = Date.now() + deadline(5000);
    while (r.requests.length < 2 && Date.now() < end) await new Promise((ok) => setTimeout(ok, 10));
    // three days and an hour later, still failing (the receiver's verifier now also refuses the
    // signature's timestamp as too new: 400, a failure as well)
    offset.ms = 73 * 3_600_000;
    let view: { enabled: boolean; disabledReason: string | null; deliveredSeq: number } | undefined;
    while (Date.now() < end + deadline(5000)) {
      view = (await (await t.call("GET", "/station/webhooks/central")).json()) as typeof view;
      if (view && !view.enabled) break;
      await new Promise((ok) => setTimeout(ok, 20));
    }
    expect(view).toMatchObject({ enabled: false, disabledReason: "horizon", deliveredSeq: 0 });
    const metrics = await t.agent.metrics.render();
    expect(metrics).toMatch(/webhook_enabled\{endpoint="central"\} 0/);
    expect(metrics).toMatch(/webhook_disabled_total\{endpoint="central",reason="horizon"\} 1/);
    expect(metrics).toMatch(/webhook_lag_seconds\{endpoint="central"\} [1-9]\d{5}/);
    const ready = (await (await t.request("/readyz")).json()) as {
      checks: Record<string, { ok: boolean; detail: string }>;
    };
    // a dead endpoint never makes the station unready (the outbox's own age check may, three days on)
    expect(ready.checks.webhooks?.ok).toBe(true);
    expect(ready.checks.webhooks?.detail).toMatch(
      /^central DISABLED \(horizon\): delivered to seq 0, lag \d+ s, last status (503|400)/,
    );
  });
});
