/**
 * The costly routes' rate over MQTT (docs/limits.md): `generate_inventory_report` is held to
 * `http.costlyRequestsPerSecond` / `http.costlyBurst` as its HTTP route is, with every request of the
 * station's broker one caller (a central broker does not say who published). Past it the answer is
 * `rate_limited` with `retryAfterSeconds`, no report is made, and the answer is not kept in the inbox:
 * the same transaction sent again after the wait is done once.
 */
import { afterEach, describe, expect, it } from "vitest";
import { SCRAPE, startTestAgent, type TestAgent } from "../../support/agent.js";
import { ask, CENTRAL, FAST, PPS, ROOT, SITE } from "../../support/sync/agent.js";
import { type Subscriber, subscribe } from "../../support/sync/subscriber.js";

interface Answer {
  status: string;
  data: { id?: number };
  error: { code: string; details?: { retryAfterSeconds?: number } } | null;
}

describe("generate_inventory_report over MQTT, held to the costly rate", () => {
  let t: TestAgent | undefined;
  let central: Subscriber | undefined;
  afterEach(async () => {
    await central?.close();
    await t?.close();
  });

  it("past the burst: rate_limited, no report made; after the wait the same transaction passes once", async () => {
    t = await startTestAgent(
      {
        site: SITE,
        ppsId: PPS,
        http: { costlyRequestsPerSecond: 1, costlyBurst: 2 },
        mqtt: { url: "embedded", embeddedPort: 0, ...FAST },
      },
      { listen: true },
    );
    central = await subscribe(t.agent.sync.url as string, [`${ROOT}/response/#`], CENTRAL);
    const generate = async (transaction: string) =>
      JSON.parse(await ask(central as Subscriber, "generate_inventory_report", { transaction })) as Answer;

    const answers = [await generate("r-1"), await generate("r-2"), await generate("r-3")];
    expect(answers.map((a) => a.status)).toEqual(["ok", "ok", "error"]);
    expect(answers[2]?.error).toMatchObject({ code: "rate_limited", details: { retryAfterSeconds: 1 } });
    const [first, second] = answers.map((a) => a.data.id as number);
    expect(second).toBe((first as number) + 1);

    // a second later on the agent's clock: one token; the refused transaction is done now, once
    t.clock.now += 1000;
    const again = await generate("r-3");
    // the refused one made no report: the next id follows the second
    expect(again).toMatchObject({ status: "ok", data: { id: (second as number) + 1 } });
    const metrics = await (await t.request("/metrics", SCRAPE)).text();
    expect(metrics).toContain('budget_refusals_total{reason="mqtt_rate"} 1');
  });
});
