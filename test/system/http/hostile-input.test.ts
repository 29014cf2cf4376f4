import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "../../../src/domain/json-body.js";
import { CORE_API_PREFIX } from "../../../src/http/routes/audits.routes.js";
import { AUDIT_EXAMPLES } from "../../../src/http/routes/request-examples.js";
import { SR_PREFIX } from "../../../src/http/routes/requests.routes.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { itemBody } from "../../support/fixtures.js";
import { pickBody, pickLine } from "../../support/station.js";

/** Bodies a hostile client sends: nested thousands deep, or ids that are not text. Refused with a 400. */

const CREATE = `${SR_PREFIX}/service-request`;
const ITEM = "/api-gateway/mdm-service/wms-masterdata/item";
const AUDIT = `${CORE_API_PREFIX}/audit`;

let t: TestAgent;
let base: string;
beforeAll(async () => {
  t = await startTestAgent({}, { listen: true });
  base = `http://127.0.0.1:${t.agent.address?.port}`;
});
afterAll(async () => t.close());

/** `body` with a member `deep` of nested arrays: `depth` levels of nesting in all, the body included. */
function nested(body: Record<string, unknown>, depth: number): string {
  const inner = `${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}`;
  return `${JSON.stringify(body).slice(0, -1)},"deep":${inner}}`;
}

async function post(path: string, text: string) {
  return fetch(`${base}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${await t.token()}`, "Content-Type": "application/json" },
    body: text,
  });
}

const stored = () => ({
  requests: t.agent.db.sqlite.prepare("SELECT count(*) AS n FROM service_requests").get(),
  outbox: t.agent.services.repos.outbox.lastSeq(),
});

describe("JSON nested deeper than the limit", () => {
  it("a body 2,500 levels deep → 400 body_too_deep naming the limit, nothing stored", async () => {
    const before = stored();
    const res = await post(CREATE, nested(pickBody("DEEP-1", [pickLine("DEEP-1-1", "SKU", 1)]), 2500));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; message: string; errors: { path: string }[] };
    expect(body).toMatchObject({ status: 400, code: "body_too_deep", errors: [{ path: "(body)" }] });
    expect(body.message).toContain(String(MAX_JSON_DEPTH));
    expect(stored()).toEqual(before);
  });

  it("brackets inside strings do not count; the limit itself is still read", async () => {
    const text = JSON.stringify({ ...itemBody("DEPTH-OK"), description: `[{"${"[".repeat(200)}` });
    const res = await post(ITEM, text);
    expect([res.status, await res.text()]).toEqual([200, expect.any(String)]);
    // the body object is the first level: 64 levels in all pass, 65 do not
    const atLimit = await post(CREATE, nested(pickBody("DEEP-2", [pickLine("DEEP-2-1", "SKU", 1)]), 64));
    expect((await atLimit.json()) as { code: string }).not.toMatchObject({ code: "body_too_deep" });
    const over = await post(CREATE, nested(pickBody("DEEP-3", [pickLine("DEEP-3-1", "SKU", 1)]), 65));
    expect((await over.json()) as { code: string }).toMatchObject({ code: "body_too_deep" });
  });
});

describe("identifiers must be valid Unicode without control characters", () => {
  const LONE = "A\uD800B";
  const NUL = "A\u0000B";

  it.each([
    ["a lone surrogate", LONE],
    ["NUL", NUL],
    ["a C1 control (U+009B, a terminal's CSI)", "A\u009bB"],
    ["a bidi override (U+202E)", "ORDER-\u202e1-REDRO"],
    ["a bidi isolate (U+2066)", "A\u2066B"],
  ])(
    "create service request: externalServiceRequestId with %s → 400 naming it, nothing stored",
    async (_, id) => {
      const before = stored();
      const res = await post(CREATE, JSON.stringify(pickBody(id, [pickLine("L1", "SKU", 1)])));
      expect(res.status).toBe(400);
      const body = (await res.json()) as { code: string; errors: { path: string }[] };
      expect(body.code).toBe("validation_failed");
      expect(body.errors.map((e) => e.path)).toContain("externalServiceRequestId");
      expect(stored()).toEqual(before);
    },
  );

  it.each([
    ["barcode", { barcodeList: [{ barcode: LONE }] }, "barcodeList.0.barcode"],
    ["product_sku", { productAttributes: { product_sku: NUL } }, "productAttributes.product_sku"],
    ["clientCategoryId", { clientCategoryId: "shirts\u007f" }, "clientCategoryId"],
  ])("item upsert: %s → 400 naming it", async (_, over, path) => {
    const res = await post(ITEM, JSON.stringify(itemBody("ID-CHECK", over)));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: { path: string }[] }).errors.map((e) => e.path)).toContain(path);
    const found = t.agent.db.sqlite.prepare("SELECT count(*) AS n FROM items").get() as { n: number };
    expect(found.n).toBe(1); // only DEPTH-OK above
  });

  it.each([
    [
      "a location",
      { audit_param_value: { locations_list: ["S1", LONE] } },
      "audit_param_value.locations_list.1",
    ],
    ["the parameter's name", { audit_param_name: `count${NUL}` }, "audit_param_name"],
  ])("audit create: %s → 400 naming it", async (_, over, path) => {
    const res = await post(AUDIT, JSON.stringify({ ...AUDIT_EXAMPLES.location, ...over }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { errors: { path: string }[] }).errors.map((e) => e.path)).toContain(path);
  });

  it("a surrogate pair (an emoji) is valid Unicode and accepted", async () => {
    const res = await post(CREATE, JSON.stringify(pickBody("ORDER-😀", [pickLine("L1", "SKU", 1)])));
    expect(res.status).toBe(200);
  });
});
