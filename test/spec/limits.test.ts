/**
 * Conformance: "Limits", one test per row, and "Rate limits, page sizes and payload size limits: not
 * shown" as docs/decisions.md decides it ("Search paging", "Rate limits and payload sizes"). Over HTTP; the item
 * limits also over MQTT (upsert_item).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_CONTAINERS } from "../../src/domain/json-body.js";
import { passwordGrant, TOKEN_PATH } from "../support/agent.js";
import { itemBody, level } from "../support/fixtures.js";
import { ITEM, type Json, ok, pickBody, pickLine, SR } from "../support/station.js";
import { ask } from "../support/sync/agent.js";
import { type Central, startCentral } from "./support/central.js";
import { CATALOG, refused, refusedOverMqtt, SEARCH } from "./support/masterdata.js";

let c: Central;
beforeAll(async () => {
  c = await startCentral();
});
afterAll(async () => c?.close());

const postItem = (body: unknown) => c.t.call("POST", ITEM, body);
const search = async (sku: string) =>
  (await ok(
    c.t.call("POST", SEARCH, { filter_params: [{ key: "product_sku", operator: "=", value: sku }] }),
  )) as unknown as Json[];

/** A member at the limit is kept; one character more is a 400 naming it, over HTTP and MQTT, and nothing is stored. */
async function stringLimit(member: string, at255: string): Promise<void> {
  const sku = `LEN-${member}`;
  const kept = await ok(postItem(itemBody(sku, { [member]: at255 })));
  expect([at255.length, kept[member]]).toEqual([255, at255]);
  const over = itemBody(`${sku}-OVER`, { [member]: `${at255}x` });
  await refused(postItem(over), 400, "validation_failed", member);
  refusedOverMqtt(
    await ask(c.broker, "upsert_item", { transaction: `len-${member}`, ...over }),
    400,
    "validation_failed",
    member,
  );
  expect(await search(`${sku}-OVER`)).toEqual([]);
}

describe("Limits", () => {
  it("Limits: Item clientCategoryId length | at most 255 characters", async () => {
    await stringLimit("clientCategoryId", "c".repeat(255));
  });

  it("Limits: Item description length | at most 255 characters", async () => {
    await stringLimit("description", "d".repeat(255));
  });

  it("Limits: Item imageUrl length | at most 255 characters", async () => {
    await stringLimit("imageUrl", `https://x/${"i".repeat(245)}`);
  });

  it("Limits: at most 255 characters | counted in characters, whatever their plane: 255 characters outside the BMP (510 UTF-16 units) are kept as product_sku, description and a search value; 256 are a 400 naming the field, over HTTP and MQTT (decision: docs/decisions.md#items)", async () => {
    const at255 = "𠀀".repeat(255);
    const over = `${at255}𠀀`;
    expect([at255.length, [...at255].length]).toEqual([510, 255]);
    const body = (sku: string, description: string) =>
      itemBody(sku, { description, barcodeList: [{ barcode: "BC-ASTRAL" }] });
    const kept = await ok(postItem(body(at255, at255)));
    expect([kept.productAttributes.product_sku, kept.description]).toEqual([at255, at255]);
    expect((await search(at255)).map((i) => i.id)).toEqual([kept.id]);
    await refused(postItem(body(over, "short")), 400, "validation_failed", "productAttributes.product_sku");
    refusedOverMqtt(
      await ask(c.broker, "upsert_item", { transaction: "len-astral", ...body(over, "short") }),
      400,
      "validation_failed",
      "productAttributes.product_sku",
    );
    await refused(postItem(body("ASTRAL-D", over)), 400, "validation_failed", "description");
    const value = c.t.call("POST", SEARCH, {
      filter_params: [{ key: "product_sku", operator: "=", value: over }],
    });
    await refused(value, 400, "validation_failed", "filter_params.0.value");
    expect(await search("ASTRAL-D")).toEqual([]);
  });

  it("Limits: Token validity | given per token by expires_in seconds", async () => {
    const grant = (await ok(c.t.request(TOKEN_PATH, passwordGrant()))) as {
      access_token: string;
      expires_in: number;
    };
    expect(Number.isInteger(grant.expires_in) && grant.expires_in > 0).toBe(true);
    const list = () => c.t.request(CATALOG, { headers: { Authorization: `Bearer ${grant.access_token}` } });
    const start = c.t.clock.now;
    try {
      c.t.clock.now = start + (grant.expires_in - 1) * 1000;
      expect((await list()).status).toBe(200);
      c.t.clock.now = start + grant.expires_in * 1000;
      const res = await list();
      expect([res.status, ((await res.json()) as Json).code]).toEqual([401, "unauthorized"]);
    } finally {
      c.t.clock.now = start;
    }
  });

  it("Limits: Item config root level qty | must equal 1 (a child level's qty is free)", async () => {
    const root2 = itemBody("ROOT-2", { itemConfig: { level: [level("pallet", { qty: 2 })] } });
    await refused(postItem(root2), 400, "validation_failed", "itemConfig.level.0.qty");
    expect(await search("ROOT-2")).toEqual([]);
    const nested = itemBody("CHILD-2", {
      itemConfig: { level: [level("case", { level: [level("pack", { qty: 2 })] })] },
    });
    expect((await ok(postItem(nested))).itemConfig.level[0].level[0].qty).toBe(2);
  });

  it("Limits: Barcodes | globally unique across the system", async () => {
    const holder = await ok(
      postItem(
        itemBody("HOLDER", {
          barcodeList: [{ barcode: "G-1" }],
          itemConfig: { level: [level("case", { barcode: [{ barcode: "G-CASE" }] })] },
        }),
      ),
    );
    const held = { item: { id: holder.id, product_sku: "HOLDER" } };
    const cases: Array<[string, Json, string, string]> = [
      ["item vs item", { barcodeList: [{ barcode: "G-1" }] }, "G-1", "barcodeList.0.barcode"],
      [
        "item vs another item's level",
        { barcodeList: [{ barcode: "G-CASE" }] },
        "G-CASE",
        "barcodeList.0.barcode",
      ],
      [
        "level vs another item's barcode",
        { barcodeList: [], itemConfig: { level: [level("case", { barcode: [{ barcode: "G-1" }] })] } },
        "G-1",
        "itemConfig.level.0.barcode.0.barcode",
      ],
      [
        "level vs level",
        { barcodeList: [], itemConfig: { level: [level("case", { barcode: [{ barcode: "G-CASE" }] })] } },
        "G-CASE",
        "itemConfig.level.0.barcode.0.barcode",
      ],
    ];
    for (const [name, over, barcode, path] of cases) {
      const body = await refused(postItem(itemBody("TAKER", over)), 409, "barcode_conflict", path);
      expect([name, body.details]).toEqual([name, expect.objectContaining({ barcode, ...held })]);
    }
    const twice = itemBody("TWICE", {
      barcodeList: [{ barcode: "T-1" }],
      itemConfig: { level: [level("case", { barcode: [{ barcode: "T-1" }] })] },
    });
    await refused(postItem(twice), 400, "validation_failed", "itemConfig.level.0.barcode.0.barcode");
    expect([await search("TAKER"), await search("TWICE")]).toEqual([[], []]);
  });

  it("Limits: Search operators | = only", async () => {
    for (const operator of ["in", "!=", "like"]) {
      const res = c.t.call("POST", SEARCH, {
        filter_params: [{ key: "product_sku", operator, value: "HOLDER" }],
      });
      await refused(res, 400, "unsupported_operator", "filter_params.0.operator");
    }
    expect(await search("HOLDER")).toHaveLength(1);
  });

  it("Limits: Pick filter operators | = and in", async () => {
    const line = (id: string, filter: string) => {
      const l = pickLine(id, "HOLDER", 1);
      l.expectations.containers[0].products[0].productAttributes.filter_parameters = [filter];
      return l;
    };
    await ok(c.t.call("POST", SR, pickBody("LIM-EQ", [line("l1", "product_sku = 'HOLDER'")])));
    await ok(c.t.call("POST", SR, pickBody("LIM-IN", [line("l1", "product_sku in ('HOLDER','X')")])));
    for (const [i, filter] of ["product_sku != 'HOLDER'", "product_sku like 'HOL%'"].entries()) {
      const res = c.t.call("POST", SR, pickBody(`LIM-BAD-${i}`, [line("l1", filter)]));
      await refused(
        res,
        400,
        "unsupported_operator",
        "serviceRequests.0.expectations.containers.0.products.0.productAttributes.filter_parameters.0",
      );
      expect((await c.t.call("GET", `${SR}/LIM-BAD-${i}?type=PICK`)).status).toBe(404);
    }
  });
});

describe("Limits: Rate limits, page sizes and payload size limits | not shown", () => {
  const nested = (depth: number): unknown => (depth === 0 ? "leaf" : { n: nested(depth - 1) });

  it("Limits: page sizes | not shown → a search answers all its matches up to 1,000 items; more is a 400 search_too_broad (refine the search), never a cut list (decision: docs/decisions.md#work-limits)", async () => {
    const schema = { unique: [["product_sku", "client_id"]], type: "object" };
    const post = (n: number) =>
      ok(
        postItem(
          itemBody("MANY", {
            schema,
            productAttributes: { product_sku: "MANY", client_id: `c${n}` },
            barcodeList: [],
          }),
        ),
      );
    for (let from = 0; from < 1000; from += 100) {
      await Promise.all(Array.from({ length: 100 }, (_, i) => post(from + i)));
    }
    const found = await search("MANY");
    expect([found.length, new Set(found.map((i) => i.id)).size]).toEqual([1000, 1000]);
    await post(1000);
    const res = c.call("POST", SEARCH, {
      filter_params: [{ key: "product_sku", operator: "=", value: "MANY" }],
    });
    const body = await refused(res, 400, "search_too_broad", "filter_params");
    expect(body.details).toEqual({ limit: "search.maxResults", max: 1000 });
  });

  it("Limits: payload size limits | not shown → bodies up to http.bodyLimitBytes (1 MiB), else 413 payload_too_large, over HTTP and MQTT (decision)", async () => {
    const under = itemBody("BIG-OK", { imageData: "x".repeat(1000 * 1000) });
    expect((await ok(postItem(under))).imageData).toHaveLength(1000 * 1000);
    const res = await postItem(itemBody("BIG", { imageData: "x".repeat(1024 * 1024) }));
    expect([res.status, ((await res.json()) as Json).code]).toEqual([413, "payload_too_large"]);
    const big = { transaction: "big", ...itemBody("BIG", { imageData: "x".repeat(1024 * 1024) }) };
    const answer = JSON.parse(await ask(c.broker, "upsert_item", big)) as Json;
    expect([answer.status, answer.error?.status, answer.error?.code]).toEqual([
      "error",
      413,
      "payload_too_large",
    ]);
    expect(await search("BIG")).toEqual([]);
  });

  it("Limits: payload size limits | not shown → JSON nested at most 64 levels deep, else 400 body_too_deep, over HTTP and MQTT (decision)", async () => {
    expect((await ok(postItem(itemBody("DEEP-OK", { imageData: nested(60) })))).imageData).toEqual(
      nested(60),
    );
    const deep = itemBody("DEEP", { imageData: nested(70) });
    const res = await postItem(deep);
    expect([res.status, ((await res.json()) as Json).code]).toEqual([400, "body_too_deep"]);
    const answer = JSON.parse(await ask(c.broker, "upsert_item", { transaction: "deep", ...deep })) as Json;
    expect([answer.status, answer.error?.status, answer.error?.code]).toEqual([
      "error",
      400,
      "body_too_deep",
    ]);
    expect(await search("DEEP")).toEqual([]);
  });

  it("Limits: payload size limits | not shown → at most 20,000 arrays and objects in a body, else 400 validation_failed naming the member, over HTTP and MQTT (decision: docs/decisions.md#bulky-item-documents)", async () => {
    const empties = (n: number) => Array.from({ length: n }, () => ({}));
    // the body, attributes, weight, its uom, dimension, its uom, productAttributes, barcodeList and
    // its entry, schema, its unique list and group: 12, and imageData's array
    const atLimit = await ok(
      postItem(itemBody("CONTAINERS-OK", { imageData: empties(MAX_JSON_CONTAINERS - 13) })),
    );
    expect(atLimit.imageData).toHaveLength(MAX_JSON_CONTAINERS - 13);
    const many = itemBody("CONTAINERS", { imageData: empties(MAX_JSON_CONTAINERS) });
    const res = await postItem(many);
    expect([res.status, await res.json()]).toMatchObject([
      400,
      { code: "validation_failed", errors: [{ path: "imageData" }] },
    ]);
    const answer = JSON.parse(await ask(c.broker, "upsert_item", { transaction: "many", ...many })) as Json;
    expect([
      answer.status,
      answer.error?.status,
      answer.error?.code,
      answer.error?.errors?.[0]?.path,
    ]).toEqual(["error", 400, "validation_failed", "imageData"]);
    expect(await search("CONTAINERS")).toEqual([]);
  });

  it("Limits: list lengths | not shown → at most 1,000 barcodes, 100 levels per list (decision: docs/decisions.md#items)", async () => {
    const barcodes = (k: number, p: string) =>
      Array.from({ length: k }, (_, i) => ({ barcode: `${p}-${i}` }));
    expect(
      (await ok(postItem(itemBody("BARCODES", { barcodeList: barcodes(1000, "K") })))).barcodeList,
    ).toHaveLength(1000);
    await refused(
      postItem(itemBody("BARCODES-2", { barcodeList: barcodes(1001, "L") })),
      400,
      "validation_failed",
      "barcodeList",
    );
    const levels = (k: number) => Array.from({ length: k }, (_, i) => level(`l${i}`));
    expect(
      (await ok(postItem(itemBody("LEVELS", { itemConfig: { level: levels(100) } })))).itemConfig.level,
    ).toHaveLength(100);
    await refused(
      postItem(itemBody("LEVELS-2", { itemConfig: { level: levels(101) } })),
      400,
      "validation_failed",
      "itemConfig.level",
    );
    expect([await search("BARCODES-2"), await search("LEVELS-2")]).toEqual([[], []]);
  });

  it("Limits: rate limits | not shown → no rate limit: 100 searches at once are all answered 200 (decision)", async () => {
    const body = { filter_params: [{ key: "product_sku", operator: "=", value: "HOLDER" }] };
    const statuses = await Promise.all(
      Array.from({ length: 100 }, async () => (await c.t.call("POST", SEARCH, body)).status),
    );
    expect(new Set(statuses)).toEqual(new Set([200]));
  });
});
