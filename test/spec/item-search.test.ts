/**
 * Conformance: "Resources" → "Item object" → "Item as returned by search adds or changes"; "Endpoints" →
 * "Items" → "Search items" and the search filter rules (docs/decisions.md#items for the filter count).
 * Over HTTP: search has no MQTT request (docs/mqtt.md#requests-and-responses).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { itemBody, level } from "../support/fixtures.js";
import { ITEM, type Json, ok } from "../support/station.js";
import { type Central, startCentral } from "./support/central.js";
import { refused, SEARCH } from "./support/masterdata.js";

const GROUP = { unique: [["product_sku", "client_id"]], type: "object" };

let c: Central;
let full: Json;
beforeAll(async () => {
  c = await startCentral();
  full = await ok(
    c.t.call(
      "POST",
      ITEM,
      itemBody("FULL", {
        schema: GROUP,
        clientItemId: "client-7",
        productAttributes: { product_sku: "FULL", client_id: "A", fragile: true },
        barcodeList: [{ barcode: "BC-F1" }, { barcode: "BC-F2" }],
        itemConfig: { level: [level("case", { barcode: [{ barcode: "BC-F-CASE" }] })] },
      }),
    ),
  );
  await ok(
    c.t.call(
      "POST",
      ITEM,
      itemBody("FULL", {
        schema: GROUP,
        productAttributes: { product_sku: "FULL", client_id: "B" },
        barcodeList: [{ barcode: "BC-FB" }],
      }),
    ),
  );
  // client_id is an attribute of this item but not one of its schema's unique attributes
  await ok(
    c.t.call(
      "POST",
      ITEM,
      itemBody("PLAIN", { productAttributes: { product_sku: "PLAIN", client_id: "A" } }),
    ),
  );
});
afterAll(async () => c?.close());

const post = (body: unknown) => c.t.call("POST", SEARCH, body);
const search = async (filter_params: Json[]) => (await ok(post({ filter_params }))) as unknown as Json[];
const eq = (key: string, value: unknown) => ({ key, operator: "=", value });

describe("Item as returned by search", () => {
  it("Item as returned by search: id (integer), clientItemId (string or null), uom (null), serialised (boolean), displayKeyList (list)", async () => {
    const [found] = await search([eq("product_sku", "FULL"), eq("client_id", "A")]);
    expect(found).toMatchObject({ id: full.id, clientItemId: "client-7", uom: null, serialised: false });
    expect(Number.isInteger(found?.id)).toBe(true);
    expect(found?.displayKeyList).toEqual(["product_sku", "client_id"]);
    const [plain] = await search([eq("product_sku", "PLAIN")]);
    expect(plain?.clientItemId).toBeNull();
  });

  it("Item as returned by search: jsonProductAttributes (copy of productAttributes), jsonSchema (copy of schema)", async () => {
    const [found] = await search([eq("product_sku", "FULL"), eq("client_id", "A")]);
    const attributes = { product_sku: "FULL", client_id: "A", fragile: true };
    expect(found).toMatchObject({ productAttributes: attributes, jsonProductAttributes: attributes });
    expect(found).toMatchObject({ schema: GROUP, jsonSchema: GROUP });
  });

  it("Item as returned by search: barcodeList entries carry id (integer) besides barcode", async () => {
    const [found] = await search([eq("product_sku", "FULL"), eq("client_id", "A")]);
    expect(found?.barcodeList).toEqual([
      { id: expect.any(Number), barcode: "BC-F1" },
      { id: expect.any(Number), barcode: "BC-F2" },
    ]);
    expect(found?.barcodeList.every((b: Json) => Number.isInteger(b.id))).toBe(true);
    expect(found?.itemConfig.level[0].barcode).toEqual([{ barcode: "BC-F-CASE" }]);
  });

  it("Item as returned by search: attributes carries id (integer), volume (null), status (null); each uom an object {id, type DIMENSION|WEIGHT, unit, conversionFactor}", async () => {
    const [found] = await search([eq("product_sku", "FULL"), eq("client_id", "A")]);
    expect(found?.attributes).toEqual({
      id: expect.any(Number),
      volume: null,
      status: null,
      weight: { value: 250, uom: { id: 4, type: "WEIGHT", unit: "G", conversionFactor: 1 } },
      dimension: {
        length: 30,
        width: 20,
        height: 2,
        uom: { id: 2, type: "DIMENSION", unit: "CM", conversionFactor: 10 },
      },
    });
    expect(full.attributes).toEqual(found?.attributes);
  });
});

describe("Search items", () => {
  it("Items: Search items | 200: JSON list of Item objects matching; value is what the attribute is matched against", async () => {
    const found = await search([eq("product_sku", "FULL")]);
    expect(found.map((i) => i.productAttributes.client_id).sort()).toEqual(["A", "B"]);
    expect((await search([eq("client_id", "B")])).map((i) => i.productAttributes.product_sku)).toEqual([
      "FULL",
    ]);
  });

  it("Items: Search items | empty list [] with 200 when nothing matches", async () => {
    expect(await search([eq("product_sku", "NOTHING")])).toEqual([]);
    expect(await search([eq("product_sku", "FULL"), eq("client_id", "Z")])).toEqual([]);
  });

  it("Items: search filter rules | key must be one of the unique attributes defined in the item's schema", async () => {
    // PLAIN carries client_id "A" but its schema does not list it as unique: only FULL/A is found
    expect((await search([eq("client_id", "A")])).map((i) => i.productAttributes.product_sku)).toEqual([
      "FULL",
    ]);
    const before = await search([eq("product_sku", "FULL")]);
    const body = await refused(
      post({ filter_params: [eq("product_sku", "FULL"), eq("fragile", true)] }),
      400,
      "unknown_search_key",
      "filter_params.1.key",
    );
    expect(body.message).toContain("fragile");
    expect(await search([eq("product_sku", "FULL")])).toEqual(before);
  });

  it("Items: search filter rules | operator supports only =", async () => {
    for (const operator of ["in", "!=", "like", "==", ""]) {
      await refused(
        post({ filter_params: [{ key: "product_sku", operator, value: "FULL" }] }),
        400,
        "unsupported_operator",
        "filter_params.0.operator",
      );
    }
  });

  it("Items: search filter rules | operator supports only =: the operator is checked before the value, so `in` with a list is unsupported_operator, not a bad value (decision: docs/decisions.md#items)", async () => {
    for (const value of [["FULL", "OTHER"], { any: 1 }, null]) {
      await refused(
        post({ filter_params: [{ key: "product_sku", operator: "in", value }] }),
        400,
        "unsupported_operator",
        "filter_params.0.operator",
      );
    }
    // with `=`, such a value is a bad value
    await refused(
      post({ filter_params: [{ key: "product_sku", operator: "=", value: ["FULL"] }] }),
      400,
      "validation_failed",
      "filter_params.0.value",
    );
  });

  it('Items: search filter rules | value is matched as text: "12" finds 12 (decision: docs/decisions.md#items)', async () => {
    const schema = { unique: [["product_sku"], ["ean"]], type: "object" };
    const item = await ok(
      c.t.call(
        "POST",
        ITEM,
        itemBody("EAN", { schema, productAttributes: { product_sku: "EAN", ean: 4006381333931 } }),
      ),
    );
    for (const value of [4006381333931, "4006381333931"]) {
      expect((await search([eq("ean", value)])).map((i) => i.id)).toEqual([item.id]);
    }
    const body = itemBody("EAN-OBJ", {
      schema,
      productAttributes: { product_sku: "EAN-OBJ", ean: { code: 1 } },
    });
    await refused(c.t.call("POST", ITEM, body), 400, "validation_failed", "productAttributes.ean");
    expect(await search([eq("product_sku", "EAN-OBJ")])).toEqual([]);
  });

  it("Items: search filter rules | several filters must all match (decision: docs/decisions.md#items)", async () => {
    expect(await search([eq("product_sku", "FULL"), eq("client_id", "B")])).toHaveLength(1);
    expect(await search([eq("product_sku", "PLAIN"), eq("client_id", "A")])).toEqual([]);
  });

  it("Items: search filter rules | at least one and at most 20 filters (decision: docs/decisions.md#items)", async () => {
    await refused(post({ filter_params: [] }), 400, "validation_failed", "filter_params");
    await refused(post({}), 400, "validation_failed", "filter_params");
    const twenty = Array.from({ length: 20 }, () => eq("product_sku", "FULL"));
    expect(await search(twenty)).toHaveLength(2);
    await refused(
      post({ filter_params: [...twenty, eq("product_sku", "FULL")] }),
      400,
      "validation_failed",
      "filter_params",
    );
  });

  it("Items: Search items | 401 without a valid token (decision: docs/decisions.md#items)", async () => {
    const body = JSON.stringify({ filter_params: [eq("product_sku", "FULL")] });
    const headers = { "Content-Type": "application/json" };
    const none = await c.t.request(SEARCH, { method: "POST", headers, body });
    expect([none.status, ((await none.json()) as Json).code]).toEqual([401, "unauthorized"]);
    const bad = await c.t.request(SEARCH, {
      method: "POST",
      headers: { ...headers, Authorization: "Bearer nope" },
      body,
    });
    expect(bad.status).toBe(401);
  });
});
