import { afterEach, describe, expect, it } from "vitest";
import { SCRAPE, startTestAgent, type TestAgent } from "../../support/agent.js";

/**
 * Requests per second per user on the costly routes (docs/limits.md), over a real socket: past
 * `http.costlyBurst` at once, 429 `rate_limited` with `Retry-After`, until the user's bucket refills at
 * `http.costlyRequestsPerSecond` (on the agent's clock).
 */

const SEARCH = "/api-gateway/mdm-service/wms-masterdata/item/search_v2";

let t: TestAgent | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe("the costly routes' rate per user", () => {
  it("past the burst a search is refused 429 rate_limited with Retry-After; the next second it passes", async () => {
    t = await startTestAgent(
      { http: { host: "127.0.0.1", port: 0, costlyRequestsPerSecond: 2, costlyBurst: 3 } },
      { listen: true },
    );
    const base = `http://127.0.0.1:${t.agent.address?.port}`;
    const token = await t.token();
    const search = () =>
      fetch(`${base}${SEARCH}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ filter_params: [{ key: "product_sku", operator: "=", value: "X" }] }),
      });
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let i = 0; i < 5; i++) {
      const res = await search();
      statuses.push(res.status);
      if (res.status === 429) refused = res;
      else await res.arrayBuffer();
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(refused?.headers.get("retry-after")).toBe("1");
    const body = (await refused?.json()) as { code: string; errors: Array<{ message: string }> };
    expect(body.code).toBe("rate_limited");
    expect(body.errors[0]?.message).toContain("http.costlyRequestsPerSecond");
    // other routes are not held
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    // a second later on the agent's clock, two more tokens
    t.clock.now += 1000;
    expect((await search()).status).toBe(200);
    const metrics = await (await t.request("/metrics", SCRAPE)).text();
    expect(metrics).toContain('budget_refusals_total{reason="http_rate"} 2');
  });
});
