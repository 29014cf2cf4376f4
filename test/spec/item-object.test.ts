/**
 * Conformance: "Resources" → "Item object (product)", one test per field row and per `attributes`
 * member row; each bad value a 400 naming the field, nothing stored. Identity and the endpoint rows:
 * items.test.ts; lengths and barcodes: limits.test.ts; itemConfig: item-config.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { itemBody, level } from "../support/fixtures.js";
import { ITEM, type Json, ok } from "../support/station.js";
import { ask } from "../support/sync/agent.js";
import { type Central, startCentral } from "./support/central.js";
import { CATALOG, catalogBody, pdea, refused, SEARCH } from "./support/masterdata.js";

const GROUP = { unique: [["product_sku", "client_id"]], type: "object" };

let c: Central;
beforeAll(async () => {
  c = await startCentral();
});
afterAll(async () => c?.close());

let n = 0;
const post = (body: unknown) => c.t.call("POST", ITEM, body);
const stored = async (sku: string) =>
  (await ok(
    c.t.call("POST", SEARCH, { filter_params: [{ key: "product_sku", operator: "=", value: sku }] }),
  )) as unknown as Json[];

/** An item body with `over` applied (a member set to undefined is left out): a 400 naming `path`, nothing stored. */
async function bad(over: Json, path: string, code = "validation_failed"): Promise<void> {
  const sku = `BAD-${++n}`;
  await refused(post(itemBody(sku, over)), 400, code, path);
  expect(await stored(sku)).toEqual([]);
}

const attrs = (weight: Json, dimension: Json): Json => {
  const base = itemBody("x").attributes as Json;
  return {
    attributes: { weight: { ...base.weight, ...weight }, dimension: { ...base.dimension, ...dimension } },
  };
};

describe("Item object", () => {
  it("Item object: schema | optional; if absent, inherited from the category", async () => {
    await ok(
      post(
        itemBody("BOOT-1", {
          schema: GROUP,
          clientCategoryId: "boots",
          productAttributes: { product_sku: "BOOT-1", client_id: "A" },
        }),
      ),
    );
    const { schema: _, ...noSchema } = itemBody("BOOT-2", {
      clientCategoryId: "boots",
      productAttributes: { product_sku: "BOOT-2", client_id: "A" },
    });
    const inherited = await ok(post(noSchema));
    expect(inherited).toMatchObject({
      schema: GROUP,
      jsonSchema: GROUP,
      displayKeyList: ["product_sku", "client_id"],
    });
    // a product-level schema overrides the category's for that item only (docs/decisions.md#items)
    const own = { unique: [["product_sku"]], type: "object" };
    expect((await ok(post(itemBody("BOOT-3", { schema: own, clientCategoryId: "boots" })))).schema).toEqual(
      own,
    );
    const { schema: __, ...later } = itemBody("BOOT-4", {
      clientCategoryId: "boots",
      productAttributes: { product_sku: "BOOT-4", client_id: "A" },
    });
    expect((await ok(post(later))).schema).toEqual(GROUP);
  });

  it("Item object: schema | a schema must exist at category or product level → 400 schema_missing", async () => {
    await bad({ schema: undefined, clientCategoryId: undefined }, "schema", "schema_missing");
    await bad({ schema: undefined, clientCategoryId: "no-such-category" }, "schema", "schema_missing");
    await bad({ schema: { unique: [], type: "object" } }, "schema.unique");
    await bad({ schema: { unique: [["product_sku"]], type: "array" } }, "schema.type");
  });

  it("Item object: clientCategoryId | string, max 255, optional", async () => {
    const item = await ok(post(itemBody("NOCAT", { clientCategoryId: undefined })));
    expect(item.clientCategoryId).toBeNull();
    await bad({ clientCategoryId: 12 }, "clientCategoryId");
  });

  it("Item object: clientCategoryId | optional: null is no category, so an uncategorised item as answered can be posted back, over HTTP and MQTT (decision: docs/decisions.md#items)", async () => {
    const item = await ok(post(itemBody("NULLCAT", { clientCategoryId: null })));
    expect(item.clientCategoryId).toBeNull();
    const found = (await ok(
      c.t.call("POST", SEARCH, { filter_params: [{ key: "product_sku", operator: "=", value: "NULLCAT" }] }),
    )) as unknown as Json[];
    expect(found[0]?.clientCategoryId).toBeNull();
    const again = {
      ...itemBody("NULLCAT", { clientCategoryId: found[0]?.clientCategoryId }),
      description: "again",
    };
    expect((await ok(post(again))).description).toBe("again");
    const answer = JSON.parse(
      await ask(c.broker, "upsert_item", {
        transaction: "nullcat",
        ...itemBody("NULLCAT2", { clientCategoryId: null }),
      }),
    ) as Json;
    expect([answer.status, answer.data?.clientCategoryId]).toEqual(["ok", null]);
  });

  it("Item object: attributes | object, required: weight and dimension", async () => {
    await bad({ attributes: undefined }, "attributes");
    await bad(
      { attributes: { dimension: (itemBody("x").attributes as Json).dimension } },
      "attributes.weight",
    );
    await bad({ attributes: { weight: (itemBody("x").attributes as Json).weight } }, "attributes.dimension");
  });

  it("Item attributes: weight.value | number", async () => {
    expect((await ok(post(itemBody("W-HALF", attrs({ value: 0.5 }, {}))))).attributes.weight.value).toBe(0.5);
    for (const value of ["250", null, undefined]) await bad(attrs({ value }, {}), "attributes.weight.value");
  });

  it("Item attributes: weight.value, dimension.length, width, height | numbers ≥ 0 (decision: docs/decisions.md#items)", async () => {
    const zero = await ok(post(itemBody("ZERO", attrs({ value: 0 }, { length: 0, width: 0, height: 0 }))));
    expect(zero.attributes).toMatchObject({
      weight: { value: 0 },
      dimension: { length: 0, width: 0, height: 0 },
    });
    await bad(attrs({ value: -1 }, {}), "attributes.weight.value");
    for (const member of ["length", "width", "height"])
      await bad(attrs({}, { [member]: -0.5 }), `attributes.dimension.${member}`);
  });

  it("Item attributes: weight.uom.unit | one of G, KG (weight)", async () => {
    for (const unit of ["G", "KG"]) {
      const item = await ok(post(itemBody(`W-${unit}`, attrs({ uom: { unit } }, {}))));
      expect(item.attributes.weight.uom).toMatchObject({ type: "WEIGHT", unit });
    }
    for (const unit of ["LB", "g", "MM"])
      await bad(attrs({ uom: { unit } }, {}), "attributes.weight.uom.unit");
  });

  it("Item attributes: dimension.length, width, height | number", async () => {
    const item = await ok(post(itemBody("DIM-DEC", attrs({}, { length: 30.5, width: 20.25, height: 2 }))));
    expect(item.attributes.dimension).toMatchObject({ length: 30.5, width: 20.25, height: 2 });
    for (const member of ["length", "width", "height"]) {
      for (const value of ["30", undefined])
        await bad(attrs({}, { [member]: value }), `attributes.dimension.${member}`);
    }
  });

  it("Item attributes: dimension.uom.unit | one of MM, CM, M", async () => {
    for (const unit of ["MM", "CM", "M"]) {
      const item = await ok(post(itemBody(`D-${unit}`, attrs({}, { uom: { unit } }))));
      expect(item.attributes.dimension.uom).toMatchObject({ type: "DIMENSION", unit });
    }
    for (const unit of ["IN", "cm", "KG"])
      await bad(attrs({}, { uom: { unit } }), "attributes.dimension.uom.unit");
  });

  it("Item object: productAttributes | object (key/value), required; only product_sku is required", async () => {
    await bad({ productAttributes: undefined }, "productAttributes");
    await bad({ productAttributes: ["product_sku"] }, "productAttributes");
    await bad({ productAttributes: { fragile: true } }, "productAttributes.product_sku");
    const item = await ok(post(itemBody("ONLY-SKU", { productAttributes: { product_sku: "ONLY-SKU" } })));
    expect(item.productAttributes).toEqual({ product_sku: "ONLY-SKU" });
  });

  it("Item object: productAttributes | data type and display strings are defined at catalog level", async () => {
    const list = [
      pdea("stackable_count", "integer"),
      pdea("nesting_increment", "float"),
      pdea("fragile", "boolean"),
      pdea("exclusion_tags", "dict"),
      pdea("tags", "list"),
    ];
    await ok(
      c.t.call(
        "POST",
        CATALOG,
        catalogBody("types-for-items", { exhaustive_pdea_list: [pdea("product_sku"), ...list] }),
      ),
    );
    const fits = {
      stackable_count: 3,
      nesting_increment: 0.5,
      fragile: true,
      exclusion_tags: { face: [] },
      tags: ["a"],
    };
    const item = await ok(post(itemBody("TYPED", { productAttributes: { product_sku: "TYPED", ...fits } })));
    expect(item.productAttributes).toEqual({ product_sku: "TYPED", ...fits });
    const misfits: Json = {
      stackable_count: 1.5,
      nesting_increment: "0.5",
      fragile: "yes",
      exclusion_tags: [],
      tags: "a",
    };
    for (const [name, value] of Object.entries(misfits)) {
      await bad(
        { productAttributes: { product_sku: `MISFIT-${name}`, [name]: value } },
        `productAttributes.${name}`,
      );
    }
  });

  it("Item object: productAttributes | the spec's sample members (names and types) are accepted and kept", async () => {
    const sample = {
      product_sku: "SAMPLE",
      stackable_count: 4,
      fragile: false,
      orientation_preference: true,
      nestable_count: 2,
      nestable_direction: "vertical",
      nesting_increment: 1.5,
      storage_strategy: "FIFO",
      core_eligible: true,
      scan_required: false,
      exclusion_tags: { face: ["f1"], slot: [], msu: ["m1"], shelf: [] },
    };
    const item = await ok(post(itemBody("SAMPLE", { productAttributes: sample })));
    expect([item.productAttributes, item.jsonProductAttributes]).toEqual([sample, sample]);
  });

  it("Item object: barcodeList | list of {barcode: string}, required", async () => {
    await bad({ barcodeList: undefined }, "barcodeList");
    await bad({ barcodeList: "BC-1" }, "barcodeList");
    await bad({ barcodeList: ["BC-1"] }, "barcodeList.0");
    await bad({ barcodeList: [{ barcode: 5 }] }, "barcodeList.0.barcode");
    const item = await ok(
      post(itemBody("BCS", { barcodeList: [{ barcode: "BCS-1" }, { barcode: "BCS-2" }] })),
    );
    expect(item.barcodeList.map((b: Json) => b.barcode)).toEqual(["BCS-1", "BCS-2"]);
  });

  it("Item object: description | string, max 255, optional", async () => {
    expect((await ok(post(itemBody("NODESC", { description: undefined })))).description).toBeNull();
    expect(
      (await ok(post(itemBody("DESC", { description: "Hemd, blau — 100 % Baumwolle" })))).description,
    ).toBe("Hemd, blau — 100 % Baumwolle");
    await bad({ description: 5 }, "description");
  });

  it("Item object: imageUrl | string, max 255, optional; accessible link to an image; may be null", async () => {
    expect((await ok(post(itemBody("IMG-NULL", { imageUrl: null })))).imageUrl).toBeNull();
    expect((await ok(post(itemBody("IMG-NONE")))).imageUrl).toBeNull();
    const url = "https://img.example.com/shirts/blue.png";
    expect((await ok(post(itemBody("IMG", { imageUrl: url })))).imageUrl).toBe(url);
    await bad({ imageUrl: 5 }, "imageUrl");
  });

  it("Item object: imageData | any; null in samples (decision: kept and returned as sent)", async () => {
    const values: unknown[] = [
      null,
      "iVBORw0KGgo=",
      42,
      true,
      ["a", 1],
      { mime: "image/png", data: "iVBORw0KGgo=" },
    ];
    for (const [i, imageData] of values.entries()) {
      const item = await ok(post(itemBody(`IMGDATA-${i}`, { imageData })));
      expect(item.imageData).toEqual(imageData);
      expect((await stored(`IMGDATA-${i}`))[0]?.imageData).toEqual(imageData);
    }
    expect((await ok(post(itemBody("IMGDATA-NONE")))).imageData).toBeNull();
  });

  it("Item object: a member the spec does not list is a 400 (decision: docs/decisions.md#items)", async () => {
    await bad({ colour: "blue" }, "(body)");
    await bad({ itemConfig: { level: [{ ...level("case"), colour: "blue" }] } }, "itemConfig.level.0");
  });
});
