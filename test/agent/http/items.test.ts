import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { itemBody, level } from "../../support/fixtures.js";

const ITEM = "/api-gateway/mdm-service/wms-masterdata/item";
const SEARCH = "/api-gateway/mdm-service/wms-masterdata/item/search_v2";
const CATALOG = "/api-gateway/mdm-service/wms-masterdata/catalog";

let t: TestAgent;
beforeAll(async () => {
  t = await startTestAgent();
});
afterAll(async () => t.close());

type Json = Record<string, unknown>;
const post = async (path: string, body: unknown) => t.call("POST", path, body);
const search = async (filters: Array<{ key: string; operator: string; value: unknown }>) =>
  post(SEARCH, { filter_params: filters });

describe("item create and update", () => {
  it("creates an item and returns the search shape with ids", async () => {
    const res = await post(ITEM, itemBody("SKU-1"));
    expect(res.status).toBe(200);
    const item = (await res.json()) as Json & {
      attributes: Json & { weight: { uom: Json }; dimension: { uom: Json } };
      barcodeList: Array<{ id: number; barcode: string }>;
    };
    expect(item.id).toBeTypeOf("number");
    expect(item.uom).toBeNull();
    expect(item.serialised).toBe(false);
    expect(item.displayKeyList).toEqual(["product_sku"]);
    expect(item.jsonProductAttributes).toEqual({ product_sku: "SKU-1", fragile: false });
    expect(item.jsonSchema).toEqual({ unique: [["product_sku"]], type: "object" });
    expect(item.barcodeList).toEqual([{ id: expect.any(Number), barcode: "BC-SKU-1" }]);
    expect(item.attributes.id).toBe(item.id);
    expect(item.attributes.volume).toBeNull();
    expect(item.attributes.status).toBeNull();
    expect(item.attributes.weight.uom).toEqual({ id: 4, type: "WEIGHT", unit: "G", conversionFactor: 1 });
    expect(item.attributes.dimension.uom).toEqual({
      id: 2,
      type: "DIMENSION",
      unit: "CM",
      conversionFactor: 10,
    });
  });

  it("updates the item with the same unique attributes, keeping its id and unchanged barcode ids", async () => {
    const first = (await (await post(ITEM, itemBody("SKU-2"))).json()) as { id: number; barcodeList: Json[] };
    const second = (await (
      await post(
        ITEM,
        itemBody("SKU-2", {
          description: "changed",
          barcodeList: [{ barcode: "BC-SKU-2" }, { barcode: "EXTRA-2" }],
        }),
      )
    ).json()) as { id: number; description: string; barcodeList: Array<{ id: number; barcode: string }> };
    expect(second.id).toBe(first.id);
    expect(second.description).toBe("changed");
    expect(second.barcodeList[0]).toEqual(first.barcodeList[0]);
    expect(second.barcodeList.map((b) => b.barcode)).toEqual(["BC-SKU-2", "EXTRA-2"]);
  });

  it("identifies by a multi-attribute group and inherits the category's schema", async () => {
    const schema = { unique: [["product_sku", "client_id"]], type: "object" };
    const a = (await (
      await post(
        ITEM,
        itemBody("SKU-3", {
          clientCategoryId: "multi",
          schema,
          productAttributes: { product_sku: "SKU-3", client_id: "A" },
        }),
      )
    ).json()) as { id: number };
    const b = await post(ITEM, {
      ...itemBody("SKU-3", {
        clientCategoryId: "multi",
        productAttributes: { product_sku: "SKU-3", client_id: "B" },
      }),
      schema: undefined,
      barcodeList: [{ barcode: "BC-SKU-3-B" }],
    });
    expect(b.status).toBe(200);
    const bItem = (await b.json()) as { id: number; jsonSchema: Json };
    expect(bItem.id).not.toBe(a.id);
    expect(bItem.jsonSchema).toEqual(schema);
  });

  it("generates levelType for every itemConfig level", async () => {
    const res = await post(
      ITEM,
      itemBody("SKU-4", {
        itemConfig: {
          level: [
            level("pallet", {
              levelType: 99,
              level: [level("case", { qty: 12, level: [level("each", { type: "virtual", qty: 6 })] })],
            }),
          ],
        },
      }),
    );
    expect(res.status).toBe(200);
    const item = (await res.json()) as {
      itemConfig: {
        level: Array<{
          levelType: number;
          level: Array<{ levelType: number; level: Array<{ levelType: number }> }>;
        }>;
      };
    };
    const root = item.itemConfig.level[0];
    expect(root?.levelType).toBe(1);
    expect(root?.level[0]?.levelType).toBe(2);
    expect(root?.level[0]?.level[0]?.levelType).toBe(3);
  });
});

describe("barcodes are unique across the whole system, levels included", () => {
  it("409 when another item holds the barcode, naming it and the holder; nothing changes", async () => {
    const holder = (await (await post(ITEM, itemBody("HOLD-1"))).json()) as { id: number };
    const res = await post(ITEM, itemBody("OTHER-1", { barcodeList: [{ barcode: "BC-HOLD-1" }] }));
    expect(res.status).toBe(409);
    const err = (await res.json()) as { code: string; details: Json; errors: Array<{ path: string }> };
    expect(err.code).toBe("barcode_conflict");
    expect(err.details).toMatchObject({
      barcode: "BC-HOLD-1",
      item: { id: holder.id, product_sku: "HOLD-1" },
    });
    expect(err.errors[0]?.path).toBe("barcodeList.0.barcode");
    expect(await (await search([{ key: "product_sku", operator: "=", value: "OTHER-1" }])).json()).toEqual(
      [],
    );
  });

  it("409 when a level barcode of one item equals an item barcode of another", async () => {
    await post(
      ITEM,
      itemBody("LVL-1", { itemConfig: { level: [level("case", { barcode: [{ barcode: "CASE-LVL-1" }] })] } }),
    );
    const res = await post(ITEM, itemBody("LVL-2", { barcodeList: [{ barcode: "CASE-LVL-1" }] }));
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: "barcode_conflict", details: { barcode: "CASE-LVL-1" } });
  });

  it("409 when a level barcode equals another item's barcode", async () => {
    const res = await post(
      ITEM,
      itemBody("LVL-3", {
        itemConfig: {
          level: [
            level("case", { level: [level("inner", { qty: 2, barcode: [{ barcode: "BC-HOLD-1" }] })] }),
          ],
        },
      }),
    );
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({
      errors: [{ path: "itemConfig.level.0.level.0.barcode.0.barcode" }],
    });
  });

  it("400 for the same barcode twice in one body", async () => {
    const res = await post(
      ITEM,
      itemBody("DUP-1", { itemConfig: { level: [level("case", { barcode: [{ barcode: "BC-DUP-1" }] })] } }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: "validation_failed",
      errors: [{ path: "itemConfig.level.0.barcode.0.barcode" }],
    });
  });

  it("a barcode released by an update can be taken by another item", async () => {
    await post(ITEM, itemBody("MOVE-1", { barcodeList: [{ barcode: "MOVING" }] }));
    await post(ITEM, itemBody("MOVE-1", { barcodeList: [] }));
    const res = await post(ITEM, itemBody("MOVE-2", { barcodeList: [{ barcode: "MOVING" }] }));
    expect(res.status).toBe(200);
  });
});

describe("item bad data: 400 naming the field", () => {
  const cases: Array<[string, Json, string, string?]> = [
    [
      "product_sku missing",
      itemBody("X", { productAttributes: { fragile: true } }),
      "productAttributes.product_sku",
    ],
    [
      "product_sku not a string",
      itemBody("X", { productAttributes: { product_sku: 5 } }),
      "productAttributes.product_sku",
    ],
    ["description over 255", itemBody("X", { description: "d".repeat(256) }), "description"],
    ["imageUrl over 255", itemBody("X", { imageUrl: "u".repeat(256) }), "imageUrl"],
    ["clientCategoryId over 255", itemBody("X", { clientCategoryId: "c".repeat(256) }), "clientCategoryId"],
    [
      "weight unit",
      itemBody("X", {
        attributes: {
          weight: { value: 1, uom: { unit: "LB" } },
          dimension: { length: 1, width: 1, height: 1, uom: { unit: "CM" } },
        },
      }),
      "attributes.weight.uom.unit",
    ],
    [
      "dimension unit",
      itemBody("X", {
        attributes: {
          weight: { value: 1, uom: { unit: "G" } },
          dimension: { length: 1, width: 1, height: 1, uom: { unit: "IN" } },
        },
      }),
      "attributes.dimension.uom.unit",
    ],
    [
      "negative weight",
      itemBody("X", {
        attributes: {
          weight: { value: -1, uom: { unit: "G" } },
          dimension: { length: 1, width: 1, height: 1, uom: { unit: "CM" } },
        },
      }),
      "attributes.weight.value",
    ],
    ["attributes missing", itemBody("X", { attributes: undefined }), "attributes"],
    ["barcodeList missing", itemBody("X", { barcodeList: undefined }), "barcodeList"],
    [
      "root level qty",
      itemBody("X", { itemConfig: { level: [level("pallet", { qty: 2 })] } }),
      "itemConfig.level.0.qty",
    ],
    [
      "level type",
      itemBody("X", { itemConfig: { level: [level("pallet", { type: "box" })] } }),
      "itemConfig.level.0.type",
    ],
    [
      "level label missing",
      itemBody("X", { itemConfig: { level: [level("pallet", { label: undefined })] } }),
      "itemConfig.level.0.label",
    ],
    [
      "level weight not an integer",
      itemBody("X", {
        itemConfig: {
          level: [level("p", { attributes: { ...(level("p").attributes as Json), weight: 1.5 } })],
        },
      }),
      "itemConfig.level.0.attributes.weight",
    ],
    ["schema type", itemBody("X", { schema: { unique: [["product_sku"]], type: "array" } }), "schema.type"],
    ["schema empty group", itemBody("X", { schema: { unique: [[]], type: "object" } }), "schema.unique.0"],
    [
      // an absent member is no longer refused (only product_sku is required: test/spec/items.test.ts)
      "unique attribute not a string, number or boolean",
      itemBody("X", {
        schema: { unique: [["product_sku", "client_id"]], type: "object" },
        productAttributes: { product_sku: "X", client_id: ["A"] },
      }),
      "productAttributes.client_id",
    ],
    [
      "no schema anywhere",
      itemBody("X", { schema: undefined, clientCategoryId: "never-seen" }),
      "schema",
      "schema_missing",
    ],
  ];
  for (const [name, body, path, code = "validation_failed"] of cases) {
    it(name, async () => {
      const res = await post(ITEM, body);
      expect(res.status).toBe(400);
      const err = (await res.json()) as { code: string; errors: Array<{ path: string }> };
      expect(err.code).toBe(code);
      expect(err.errors.map((e) => e.path)).toContain(path);
      expect(await (await search([{ key: "product_sku", operator: "=", value: "X" }])).json()).toEqual([]);
    });
  }

  it("checks attribute types against the catalog's PDEA types", async () => {
    await post(CATALOG, {
      clientCatalogId: "typed",
      exhaustive_pdea_list: [
        {
          field_name: "stackable_count",
          field_data_type: "integer",
          display_data: [{ locale: "en", display_name: "Stack" }],
        },
      ],
    });
    const bad = await post(
      ITEM,
      itemBody("TYPED-1", { productAttributes: { product_sku: "TYPED-1", stackable_count: "three" } }),
    );
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ errors: [{ path: "productAttributes.stackable_count" }] });
    const good = await post(
      ITEM,
      itemBody("TYPED-1", { productAttributes: { product_sku: "TYPED-1", stackable_count: 3 } }),
    );
    expect(good.status).toBe(200);
  });

  it("409 when the unique groups match two different items", async () => {
    const schema = { unique: [["product_sku"], ["ean"]], type: "object" };
    await post(ITEM, itemBody("TWO-A", { schema, productAttributes: { product_sku: "TWO-A", ean: "111" } }));
    await post(ITEM, itemBody("TWO-B", { schema, productAttributes: { product_sku: "TWO-B", ean: "222" } }));
    const res = await post(
      ITEM,
      itemBody("TWO-A", { schema, productAttributes: { product_sku: "TWO-A", ean: "222" }, barcodeList: [] }),
    );
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ code: "identity_conflict" });
  });
});

describe("search_v2", () => {
  it("finds by a unique key and answers [] when nothing matches", async () => {
    const res = await search([{ key: "product_sku", operator: "=", value: "SKU-1" }]);
    expect(res.status).toBe(200);
    const found = (await res.json()) as Array<{ productAttributes: Json; id: number }>;
    expect(found).toHaveLength(1);
    expect(found[0]?.productAttributes.product_sku).toBe("SKU-1");
    const none = await search([{ key: "product_sku", operator: "=", value: "NOPE" }]);
    expect(none.status).toBe(200);
    expect(await none.json()).toEqual([]);
  });

  it("intersects several filters", async () => {
    const both = (await (
      await search([
        { key: "product_sku", operator: "=", value: "SKU-3" },
        { key: "client_id", operator: "=", value: "B" },
      ])
    ).json()) as Array<{ productAttributes: Json }>;
    expect(both.map((i) => i.productAttributes.client_id)).toEqual(["B"]);
    const skuOnly = (await (
      await search([{ key: "product_sku", operator: "=", value: "SKU-3" }])
    ).json()) as unknown[];
    expect(skuOnly).toHaveLength(2);
  });

  it("400 for a key that is not a unique attribute", async () => {
    const res = await search([{ key: "fragile", operator: "=", value: "false" }]);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: "unknown_search_key",
      errors: [{ path: "filter_params.0.key" }],
    });
  });

  it("400 for an operator other than '='", async () => {
    const res = await search([{ key: "product_sku", operator: "in", value: "SKU-1" }]);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      code: "unsupported_operator",
      errors: [{ path: "filter_params.0.operator" }],
    });
  });

  it("400 for no filters or a malformed filter", async () => {
    expect((await post(SEARCH, { filter_params: [] })).status).toBe(400);
    expect((await post(SEARCH, {})).status).toBe(400);
    const res = await post(SEARCH, { filter_params: [{ key: "product_sku", value: "x" }] });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ errors: [{ path: "filter_params.0.operator" }] });
  });
});
