import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import type { AppEnv } from "../../../src/http/context.js";
import { fairTurnQueue, perTurn, turnQueue } from "../../../src/http/turn-budget.js";
import { turnCounter } from "../../support/turns.js";

let turns: ReturnType<typeof turnCounter> | undefined;
afterEach(() => turns?.stop());

const countBy = (xs: number[]) => {
  const m = new Map<number, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
};

describe("perTurn: request handlers spread over event-loop turns", () => {
  it("starts at most `limit` handlers per turn; every request is answered, in order", async () => {
    turns = turnCounter();
    const startedIn: number[] = [];
    const app = new Hono<AppEnv>();
    app.use("*", perTurn(2));
    app.get("/:i", (c) => {
      startedIn.push(turns?.now() as number);
      return c.text(c.req.param("i"));
    });
    const answers = await Promise.all(
      Array.from({ length: 7 }, async (_, i) => (await app.request(`/${i}`)).text()),
    );
    expect(answers).toEqual(["0", "1", "2", "3", "4", "5", "6"]);
    const perTurnCount = countBy(startedIn);
    expect(Math.max(...perTurnCount.values())).toBeLessThanOrEqual(2);
    expect(perTurnCount.size).toBeGreaterThanOrEqual(4);
  });

  it("a host's burst waits behind itself: another address's one request starts within two turns of it", async () => {
    turns = turnCounter();
    const started: Array<{ who: string; turn: number }> = [];
    const app = new Hono<AppEnv>();
    app.use("*", perTurn(2));
    app.get("/:who", (c) => {
      started.push({ who: c.req.param("who"), turn: turns?.now() as number });
      return c.text("ok");
    });
    const from = (address: string) => ({ incoming: { socket: { remoteAddress: address } } });
    const burst = Array.from({ length: 40 }, () => app.request("/flood", {}, from("127.0.0.2")));
    const one = app.request("/monitor", {}, from("127.0.0.1"));
    const statuses = await Promise.all([...burst, one].map(async (r) => (await r).status));
    expect(statuses.every((s) => s === 200)).toBe(true);
    const first = started[0]?.turn as number;
    const monitor = started.find((s) => s.who === "monitor");
    // first come, first served would start it after the whole burst: twenty turns later
    expect((monitor?.turn as number) - first).toBeLessThanOrEqual(2);
    expect(started.filter((s) => s.who === "flood").at(-1)?.turn).toBeGreaterThan(first + 10);
  });
});

describe("turnQueue: work weighed per turn", () => {
  it("lets at most `limit` by weight go in one turn, in the order asked, and one heavy taker alone", async () => {
    turns = turnCounter();
    const q = turnQueue(100);
    const went: Array<{ i: number; turn: number; weight: number }> = [];
    const weights = [40, 40, 40, 250, 10, 60, 60];
    await Promise.all(
      weights.map(async (weight, i) => {
        const wait = q.take(weight);
        if (wait) await wait;
        went.push({ i, turn: turns?.now() as number, weight });
      }),
    );
    expect(went.map((w) => w.i)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    const byTurn = new Map<number, number>();
    for (const w of went) byTurn.set(w.turn, (byTurn.get(w.turn) ?? 0) + w.weight);
    for (const [turn, weight] of byTurn)
      if (weight > 100) expect(went.filter((w) => w.turn === turn).map((w) => w.weight)).toEqual([250]);
    expect(byTurn.size).toBeGreaterThanOrEqual(4);
  });

  it("a part's size counted once it is made holds the next ones to a later turn", async () => {
    turns = turnCounter();
    const q = turnQueue(100);
    expect(q.take(10)).toBeUndefined();
    q.charge(95); // the part turned out to weigh 105
    const before = turns.now();
    const wait = q.take(10);
    expect(wait).toBeInstanceOf(Promise);
    await wait;
    expect(turns.now()).toBeGreaterThan(before);
  });
});

describe("fairTurnQueue", () => {
  it("takes one of each key in turn, the keys in the order they came", async () => {
    const q = fairTurnQueue(3);
    const order: string[] = [];
    const ask = async (key: string, label: string) => {
      const wait = q.take(key);
      if (wait) await wait;
      order.push(label);
    };
    await Promise.all([
      ask("a", "a0"),
      ask("a", "a1"),
      ask("a", "a2"),
      ask("a", "a3"),
      ask("a", "a4"),
      ask("b", "b0"),
      ask("c", "c0"),
      ask("b", "b1"),
    ]);
    // the first three go at once (room in this turn); then a, b, c, a, b, a
    expect(order).toEqual(["a0", "a1", "a2", "a3", "b0", "c0", "a4", "b1"]);
  });
});
