/**
 * Conformance: "Resources" → "Item object"; "Endpoints" → "Items" (create or update), over HTTP and
 * over MQTT (upsert_item). Catalog rows: catalog.test.ts; search: item-search.test.ts; item config:
 * item-config.test.ts; the Limits table: limits.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { itemBody } from "../support/fixtures.js";
import { ITEM, type Json, ok } from "../support/station.js";
import { ask } from "../support/sync/agent.js";
import { type Central, startCentral } from "./support/central.js";
import { refused, refusedOverMqtt, SEARCH } from "./support/masterdata.js";

const GROUP = { unique: [["product_sku", "client_id"]], type: "object" };

let c: Central;
beforeAll(async () => {
  c = await startCentral();
});
afterAll(async () => c?.close());

const post = (path: string, body: unknown) => c.t.call("POST", path, body);
const search = async (filter_params: Json[]) =>
  (await ok(post(SEARCH, { filter_params }))) as unknown as Json[];

describe("Item object: identity", () => {
  it("Item object: productAttributes | only product_sku is required (an item without a member of a uniqueness group is accepted)", async () => {
    const item = await ok(
      post(ITEM, itemBody("LOOSE", { schema: GROUP, barcodeList: [{ barcode: "BC-L1" }] })),
    );
    expect(item).toMatchObject({ id: expect.any(Number), productAttributes: { product_sku: "LOOSE" } });
    await refused(
      post(
        ITEM,
        itemBody("X", { productAttributes: { fragile: false }, barcodeList: [{ barcode: "BC-X" }] }),
      ),
      400,
      "validation_failed",
      "productAttributes.product_sku",
    );
  });

  it("Item object: productAttributes | a partial uniqueness group → identified by its product_sku alone: posting it again updates it (decision: docs/decisions.md#items)", async () => {
    const first = await ok(
      post(ITEM, itemBody("LOOSE", { schema: GROUP, barcodeList: [{ barcode: "BC-L1" }] })),
    );
    const again = await ok(
      post(
        ITEM,
        itemBody("LOOSE", { schema: GROUP, description: "again", barcodeList: [{ barcode: "BC-L1" }] }),
      ),
    );
    expect(again).toMatchObject({ id: first.id, description: "again" });
    expect(await search([{ key: "product_sku", operator: "=", value: "LOOSE" }])).toHaveLength(1);
  });

  it("Item object: productAttributes | every group of attributes listed as unique in the schema must be unique (a partial group binds no other item)", async () => {
    const a = await ok(
      post(
        ITEM,
        itemBody("LOOSE", { schema: GROUP, productAttributes: { product_sku: "LOOSE", client_id: "A" } }),
      ),
    );
    const b = await ok(
      post(
        ITEM,
        itemBody("LOOSE", {
          schema: GROUP,
          productAttributes: { product_sku: "LOOSE", client_id: "B" },
          barcodeList: [{ barcode: "BC-LB" }],
        }),
      ),
    );
    expect(new Set([a.id, b.id]).size).toBe(2);
    const again = await ok(
      post(
        ITEM,
        itemBody("LOOSE", {
          schema: GROUP,
          productAttributes: { product_sku: "LOOSE", client_id: "A" },
          description: "A again",
        }),
      ),
    );
    expect(again.id).toBe(a.id);
    const found = await search([{ key: "product_sku", operator: "=", value: "LOOSE" }]);
    expect(found.map((i) => i.productAttributes.client_id ?? null).sort()).toEqual(["A", "B", null]);
    expect(await search([{ key: "client_id", operator: "=", value: "B" }])).toHaveLength(1);
  });

  it("Items: Create or update item over MQTT (upsert_item) | a partial uniqueness group is accepted, as over HTTP", async () => {
    const answer = JSON.parse(
      await ask(c.broker, "upsert_item", {
        transaction: "i-1",
        ...itemBody("MQTT-LOOSE", { schema: GROUP, barcodeList: [{ barcode: "BC-ML" }] }),
      }),
    ) as Json;
    expect(answer).toMatchObject({
      status: "ok",
      data: { productAttributes: { product_sku: "MQTT-LOOSE" } },
    });
  });
});

describe("Endpoints: Items, create or update", () => {
  const TWO = { unique: [["product_sku"], ["ean"]], type: "object" };

  it("Items: Create or update item | 200: the created or modified Item object (no event: nothing is notified)", async () => {
    await c.mark();
    const created = await ok(post(ITEM, itemBody("ENDPOINT", { description: "first" })));
    expect(created).toMatchObject({
      id: expect.any(Number),
      description: "first",
      productAttributes: { product_sku: "ENDPOINT" },
    });
    const changed = await ok(
      post(ITEM, itemBody("ENDPOINT", { description: "second", barcodeList: [{ barcode: "BC-E2" }] })),
    );
    expect(changed).toMatchObject({
      id: created.id,
      description: "second",
      barcodeList: [{ barcode: "BC-E2" }],
    });
    expect(await search([{ key: "product_sku", operator: "=", value: "ENDPOINT" }])).toEqual([changed]);
    expect(await c.since()).toEqual([]);
  });

  it("Items: Create or update item over MQTT (upsert_item) | the created or modified Item object, the same as over HTTP", async () => {
    const upsert = async (transaction: string, body: Json) =>
      JSON.parse(await ask(c.broker, "upsert_item", { transaction, ...body })) as Json;
    const created = await upsert("m-1", itemBody("OVER-MQTT", { description: "first" }));
    expect(created).toMatchObject({
      status: "ok",
      error: null,
      data: { id: expect.any(Number), description: "first" },
    });
    const changed = await upsert("m-2", itemBody("OVER-MQTT", { description: "second" }));
    expect(changed.data).toMatchObject({ id: created.data.id, description: "second" });
    expect(await search([{ key: "product_sku", operator: "=", value: "OVER-MQTT" }])).toEqual([changed.data]);
  });

  it("Items: Error status codes of item create and search | not shown → 400 bad data, over HTTP and MQTT (decision)", async () => {
    const bad = itemBody("REFUSED", { attributes: { weight: { value: 1, uom: { unit: "LB" } } } });
    await refused(post(ITEM, bad), 400, "validation_failed", "attributes.weight.uom.unit");
    refusedOverMqtt(
      await ask(c.broker, "upsert_item", { transaction: "e-1", ...bad }),
      400,
      "validation_failed",
      "attributes.weight.uom.unit",
    );
    const { schema: _, ...noSchema } = itemBody("REFUSED", { clientCategoryId: "nothing-yet" });
    await refused(post(ITEM, noSchema), 400, "schema_missing", "schema");
    refusedOverMqtt(
      await ask(c.broker, "upsert_item", { transaction: "e-2", ...noSchema }),
      400,
      "schema_missing",
      "schema",
    );
    expect(await search([{ key: "product_sku", operator: "=", value: "REFUSED" }])).toEqual([]);
  });

  it("Items: Error status codes of item create and search | not shown → 409 barcode_conflict and identity_conflict, over HTTP and MQTT (decision)", async () => {
    await ok(
      post(ITEM, itemBody("ID-A", { schema: TWO, productAttributes: { product_sku: "ID-A", ean: "1" } })),
    );
    const b = await ok(
      post(ITEM, itemBody("ID-B", { schema: TWO, productAttributes: { product_sku: "ID-B", ean: "2" } })),
    );
    const both = itemBody("ID-A", {
      schema: TWO,
      productAttributes: { product_sku: "ID-A", ean: "2" },
      barcodeList: [],
    });
    await refused(post(ITEM, both), 409, "identity_conflict", "productAttributes");
    refusedOverMqtt(
      await ask(c.broker, "upsert_item", { transaction: "e-3", ...both }),
      409,
      "identity_conflict",
      "productAttributes",
    );
    const taker = itemBody("TAKER", { barcodeList: [{ barcode: "BC-ID-B" }] });
    const body = await refused(post(ITEM, taker), 409, "barcode_conflict", "barcodeList.0.barcode");
    expect(body.details).toMatchObject({ barcode: "BC-ID-B", item: { id: b.id, product_sku: "ID-B" } });
    refusedOverMqtt(
      await ask(c.broker, "upsert_item", { transaction: "e-4", ...taker }),
      409,
      "barcode_conflict",
      "barcodeList.0.barcode",
    );
    expect(await search([{ key: "product_sku", operator: "=", value: "TAKER" }])).toEqual([]);
    expect((await search([{ key: "ean", operator: "=", value: "2" }])).map((i) => i.id)).toEqual([b.id]);
  });

  it("Items: Error status codes of item create and search | not shown → 401 without a valid token (decision)", async () => {
    const body = JSON.stringify(itemBody("NO-TOKEN"));
    for (const auth of [undefined, "Bearer not-a-token", "Basic YTpi"]) {
      const headers: Record<string, string> = {
        "Content-Type": "application/json",
        ...(auth ? { Authorization: auth } : {}),
      };
      const res = await c.t.request(ITEM, { method: "POST", headers, body });
      expect([auth, res.status, ((await res.json()) as Json).code]).toEqual([auth, 401, "unauthorized"]);
    }
    expect(await search([{ key: "product_sku", operator: "=", value: "NO-TOKEN" }])).toEqual([]);
  });
});
