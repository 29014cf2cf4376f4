/**
 * Conformance: "Resources" → "Item object"; "Endpoints" → "Items" (create or update), over HTTP and
 * over MQTT (upsert_item). Catalog rows: catalog.test.ts; search: item-search.test.ts; item config:
 * item-config.test.ts; the Limits table: limits.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { itemBody } from "../helpers/fixtures.js";
import { ITEM, type Json, ok } from "../helpers/station.js";
import { ask } from "../sync/support/agent.js";
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

describe("items", () => {
  it("Item: productAttributes → only product_sku is required; an item without a member of a uniqueness group is accepted", async () => {
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

  it("Item: a partial uniqueness group → the item is identified by its product_sku alone: posting it again updates it", async () => {
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

  it("Item: every group listed as unique must be unique → whole groups stay unique, and a partial one binds no other item", async () => {
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

  it("Items: create or update over MQTT (upsert_item) follows the same rule: a partial uniqueness group is accepted", async () => {
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
