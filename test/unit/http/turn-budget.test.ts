import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../../../src/http/context.js";
import { perTurn } from "../../../src/http/turn-budget.js";

describe("perTurn: request handlers spread over event-loop turns", () => {
  it("starts at most `limit` handlers per turn; every request is answered, in order", async () => {
    let turn = 0;
    let ticking = true;
    const tick = () => {
      turn++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const startedIn: number[] = [];
    const app = new Hono<AppEnv>();
    app.use("*", perTurn(2));
    app.get("/:i", (c) => {
      startedIn.push(turn);
      return c.text(c.req.param("i"));
    });
    const answers = await Promise.all(
      Array.from({ length: 7 }, async (_, i) => (await app.request(`/${i}`)).text()),
    );
    ticking = false;
    expect(answers).toEqual(["0", "1", "2", "3", "4", "5", "6"]);
    const perTurnCount = new Map<number, number>();
    for (const t of startedIn) perTurnCount.set(t, (perTurnCount.get(t) ?? 0) + 1);
    expect(Math.max(...perTurnCount.values())).toBeLessThanOrEqual(2);
    expect(perTurnCount.size).toBeGreaterThanOrEqual(4);
  });
});
