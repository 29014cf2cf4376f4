/**
 * Bytes a second per user to the routes that store what they are sent (docs/limits.md): an item or
 * catalog body is counted by its `Content-Length` before it is read; past `http.storedBurstBytes` at
 * once the call is refused 429 `rate_limited` with `Retry-After`, nothing stored, until the user's
 * bucket refills at `http.storedBytesPerSecond` (on the agent's clock). Over MQTT `upsert_item` is held
 * the same way, the broker's requests one caller. A real socket and a real broker connection.
 */
import { afterEach, describe, expect, it } from "vitest";
import { SCRAPE, startTestAgent, type TestAgent } from "../../support/agent.js";
import { ask, CENTRAL, FAST, PPS, ROOT, SITE } from "../../support/sync/agent.js";
import { type Subscriber, subscribe } from "../../support/sync/subscriber.js";

const ITEM = "/api-gateway/mdm-service/wms-masterdata/item";
const KIB = 1024;

function item(sku: string, imageBytes: number) {
  return {
    schema: { unique: [["product_sku"]], type: "object" },
    clientCategoryId: null,
    attributes: {
      weight: { value: 1, uom: { unit: "G" } },
      dimension: { length: 1, width: 1, height: 1, uom: { unit: "CM" } },
    },
    productAttributes: { product_sku: sku },
    barcodeList: [],
    imageData: "A".repeat(imageBytes),
  };
}

let t: TestAgent | undefined;
let central: Subscriber | undefined;
afterEach(async () => {
  await central?.close();
  await t?.close();
  t = undefined;
  central = undefined;
});

describe("stored bytes a second per user", () => {
  it("past the burst an item upsert is refused 429 rate_limited with Retry-After, nothing stored; refilled, it passes", async () => {
    t = await startTestAgent(
      {
        site: SITE,
        ppsId: PPS,
        http: { host: "127.0.0.1", port: 0, storedBytesPerSecond: 100 * KIB, storedBurstBytes: 250 * KIB },
        mqtt: { url: "embedded", embeddedPort: 0, ...FAST },
      },
      { listen: true },
    );
    const base = `http://127.0.0.1:${t.agent.address?.port}`;
    const token = await t.token();
    const upsert = (sku: string) =>
      fetch(`${base}${ITEM}`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify(item(sku, 100 * KIB)),
      });
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (const sku of ["A", "B", "C"]) {
      const res = await upsert(sku);
      statuses.push(res.status);
      if (res.status === 429) refused = res;
      else await res.arrayBuffer();
    }
    // two bodies of about 100 KiB fit the 250 KiB burst, the third does not
    expect(statuses).toEqual([200, 200, 429]);
    expect(Number(refused?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const body = (await refused?.json()) as { code: string; errors: Array<{ message: string }> };
    expect(body.code).toBe("rate_limited");
    expect(body.errors[0]?.message).toContain("http.storedBytesPerSecond");
    const agent = t;
    const search = (sku: string) =>
      agent.call("POST", `${ITEM}/search_v2`, {
        filter_params: [{ key: "product_sku", operator: "=", value: sku }],
      });
    // nothing of the refused item was stored
    expect(((await (await search("C")).json()) as unknown[]).length).toBe(0);
    // another route is not held
    expect((await t.call("GET", "/station/state")).status).toBe(200);

    // a second later on the agent's clock: 100 KiB more, and C passes
    t.clock.now += 1000;
    expect((await upsert("C")).status).toBe(200);

    // over MQTT the broker's requests are one caller, held to the same rate
    central = await subscribe(t.agent.sync.url as string, [`${ROOT}/response/#`], CENTRAL);
    const over = async (transaction: string, sku: string) =>
      JSON.parse(
        await ask(central as Subscriber, "upsert_item", { transaction, ...item(sku, 100 * KIB) }),
      ) as {
        status: string;
        error: { code: string } | null;
      };
    const answers = [await over("m-1", "D"), await over("m-2", "E"), await over("m-3", "F")];
    expect(answers.map((a) => a.status)).toEqual(["ok", "ok", "error"]);
    expect(answers[2]?.error?.code).toBe("rate_limited");
    const metrics = await (await t.request("/metrics", SCRAPE)).text();
    expect(metrics).toContain('budget_refusals_total{reason="http_stored_bytes"} 1');
    expect(metrics).toContain('budget_refusals_total{reason="mqtt_stored_bytes"} 1');
  });
});
