/**
 * Conformance: "Limits" → "Rate limits, page sizes and payload size limits: not shown", as
 * docs/decisions.md "Work limits" decides it: the work one request may ask for is bounded before it is
 * done, and a request over a bound is refused naming the bound, over HTTP and MQTT alike, with nothing
 * changed. "Pick filter operators | `=` and `in`" (a filter's `in` list), "Search items | 200: JSON list
 * of Item objects matching" (never a cut list). The limits are set low here; their defaults are in
 * docs/configuration.md.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { itemBody } from "../support/fixtures.js";
import { ITEM, type Json, ok, pickBody, SR } from "../support/station.js";
import { ask } from "../support/sync/agent.js";
import { type Central, startCentral } from "./support/central.js";
import { refused, refusedOverMqtt, SEARCH } from "./support/masterdata.js";

const LIMITS = {
  pick: { maxLines: 3, maxFilterValues: 4, maxCandidates: 8 },
  search: { maxResults: 4, maxAnswerBytes: 64 * 1024 },
};
const SHARED = { unique: [["product_sku", "client_id"]], type: "object" };
const FILTERS = (line: number) =>
  `serviceRequests.${line}.expectations.containers.0.products.0.productAttributes.filter_parameters`;

let c: Central;
beforeAll(async () => {
  c = await startCentral(LIMITS);
  // ten items of client C1: a filter on client_id alone matches them all
  for (let i = 0; i < 10; i++) {
    const body = itemBody(`W${i}`, {
      schema: SHARED,
      productAttributes: { product_sku: `W${i}`, client_id: "C1" },
    });
    await ok(c.call("POST", ITEM, body));
  }
});
afterAll(async () => c?.close());

const line = (id: string, filters: string[]): Json => ({
  externalServiceRequestId: id,
  type: "PICK_LINE",
  expectations: {
    containers: [{ products: [{ productQuantity: 1, productAttributes: { filter_parameters: filters } }] }],
  },
});
const filterPick = (id: string, filters: string[], lines = 1): Json =>
  pickBody(
    id,
    Array.from({ length: lines }, (_, i) => line(`${id}-${i}`, filters)),
  );
const stored = async (id: string) => (await c.call("GET", `${SR}/${id}?type=PICK`)).status;

/** The refusal over HTTP and the same over MQTT (create_service_request); nothing is created by either. */
async function refusedBoth(body: Json, path: string, limit: string): Promise<void> {
  const http = await refused(c.call("POST", SR, body), 413, "limit_exceeded", path);
  expect(http.details).toMatchObject({ limit, max: expect.any(Number), asked: expect.any(Number) });
  const answer = await ask(c.broker, "create_service_request", {
    transaction: `t-${body.externalServiceRequestId}`,
    ...body,
  });
  refusedOverMqtt(answer, 413, "limit_exceeded", path);
  expect(await stored(body.externalServiceRequestId as string)).toBe(404);
}

describe("Limits: Rate limits, page sizes and payload size limits | not shown → work limits (decision: docs/decisions.md#work-limits)", () => {
  it("Pick filter operators | `=` and `in`: an `in` list longer than pick.maxFilterValues → 413 limit_exceeded naming the filter string, over HTTP and MQTT", async () => {
    await refusedBoth(
      filterPick("WL1", ["product_sku in ('W0','W1','W2','W3','W4')"]),
      `${FILTERS(0)}.0`,
      "pick.maxFilterValues",
    );
    // at the limit it is taken
    await ok(c.call("POST", SR, filterPick("WL1", ["product_sku in ('W0','W1','W2','W3')"])));
  });

  it("Pick request: more pick lines than pick.maxLines → 413 limit_exceeded naming serviceRequests, over HTTP and MQTT", async () => {
    await refusedBoth(filterPick("WL2", ["product_sku = 'W0'"], 4), "serviceRequests", "pick.maxLines");
    await ok(c.call("POST", SR, filterPick("WL2", ["product_sku = 'W0'"], 3)));
  });

  it("Modify pick: a modify that would leave more lines than pick.maxLines → 413, nothing changed", async () => {
    await ok(c.call("POST", SR, filterPick("WL3", ["product_sku = 'W0'"], 3)));
    const extra = { serviceRequests: [line("WL3-9", ["product_sku = 'W1'"])] };
    const res = c.call("POST", `${SR}/modify`, { externalServiceRequestId: "WL3", type: "PICK", ...extra });
    await refused(res, 413, "limit_exceeded", "serviceRequests");
    expect((await ok(c.call("GET", `${SR}/WL3?type=PICK`))).serviceRequests).toHaveLength(3);
  });

  it("Pick request: filters whose resolution reads more index rows than pick.maxCandidates → 413 naming the line's filters; a selective filter beside the broad one is resolved by it", async () => {
    // client_id = 'C1' alone matches all ten items, more rows than 8
    await refusedBoth(filterPick("WL4", ["client_id = 'C1'"]), FILTERS(0), "pick.maxCandidates");
    // the same broad filter with a selective one: the selective one drives, a few rows are read
    const got = await ok(c.call("POST", SR, filterPick("WL4", ["client_id = 'C1'", "product_sku = 'W5'"])));
    expect(got.status).toBe("CREATED");
  });

  it("Search items | 200: JSON list of Item objects matching: more matches than search.maxResults → 400 search_too_broad (refine the search), never a cut list", async () => {
    const res = c.call("POST", SEARCH, { filter_params: [{ key: "client_id", operator: "=", value: "C1" }] });
    const body = await refused(res, 400, "search_too_broad", "filter_params");
    expect(body.details).toEqual({ limit: "search.maxResults", max: 4 });
    const one = [
      { key: "client_id", operator: "=", value: "C1" },
      { key: "product_sku", operator: "=", value: "W3" },
    ];
    const found = (await ok(c.call("POST", SEARCH, { filter_params: one }))) as unknown as Json[];
    expect(found.map((i) => i.productAttributes.product_sku)).toEqual(["W3"]);
  });

  it("Search items: an answer over search.maxAnswerBytes (items carry imageData) → 400 search_too_broad naming the limit; each item alone is answered", async () => {
    const image = "x".repeat(40 * 1024);
    for (const sku of ["IMG1", "IMG2"]) {
      const body = itemBody(sku, {
        schema: SHARED,
        imageData: image,
        productAttributes: { product_sku: sku, client_id: "C2" },
      });
      await ok(c.call("POST", ITEM, body));
    }
    const both = c.call("POST", SEARCH, {
      filter_params: [{ key: "client_id", operator: "=", value: "C2" }],
    });
    const body = await refused(both, 400, "search_too_broad", "filter_params");
    expect(body.details).toEqual({ limit: "search.maxAnswerBytes", max: 64 * 1024 });
    const one = await ok(
      c.call("POST", SEARCH, { filter_params: [{ key: "product_sku", operator: "=", value: "IMG2" }] }),
    );
    expect((one as unknown as Json[])[0]?.imageData).toBe(image);
  });
});
