/**
 * search_v2 answers each item from its stored text (db/item-answer.ts, docs/limits.md#item-documents):
 * the same item as the create answers (domain/item.view.ts), byte for byte, and the stored document is
 * never parsed on the way.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { itemBody, level } from "../../support/fixtures.js";

const ITEM = "/api-gateway/mdm-service/wms-masterdata/item";
const SEARCH = "/api-gateway/mdm-service/wms-masterdata/item/search_v2";

let t: TestAgent;
beforeAll(async () => {
  t = await startTestAgent();
});
afterAll(async () => t.close());
afterEach(() => vi.restoreAllMocks());

const search = (key: string, value: unknown) =>
  t.call("POST", SEARCH, { filter_params: [{ key, operator: "=", value }] });

/** Items that exercise every member the answer builds: present, absent, null, escaped, nested. */
const ITEMS: Array<Record<string, unknown>> = [
  itemBody("ANS-1"),
  itemBody("ANS-2", {
    schema: { unique: [["product_sku"], ["gtin", "product_sku"]], type: "object", title: "kept as given" },
    clientCategoryId: null,
    clientItemId: "client-7",
    attributes: {
      colour: 'réd \u0001 \u2028 "quoted" \\ back',
      id: 999,
      volume: 12,
      weight: { value: 0.1, uom: { unit: "KG", note: "x" } },
      dimension: { length: 1e21, width: 2.5, height: 0, uom: { unit: "M" } },
    },
    productAttributes: { product_sku: "ANS-2", gtin: "0123", tags: ["a", { b: [null, true] }], n: -0.5 },
    barcodeList: [{ barcode: "ANS-2-A" }, { barcode: "ANS-2-B" }],
    description: null,
    imageUrl: "https://example.com/a.png",
    imageData: { kind: "png", parts: [{}, [], "😀"] },
    itemConfig: {
      level: [
        level("case", {
          barcode: [{ barcode: "ANS-2-CASE" }],
          level: [level("each", { type: "virtual", qty: 6 })],
        }),
      ],
    },
  }),
  itemBody("ANS-3", { barcodeList: [], description: undefined, imageData: "data:image/png;base64,AAAA" }),
];

describe("the search answer of an item", () => {
  it("is the create answer, byte for byte", async () => {
    for (const body of ITEMS) {
      const created = await t.call("POST", ITEM, body);
      expect(created.status).toBe(200);
      const createdText = await created.text();
      const sku = (body.productAttributes as { product_sku: string }).product_sku;
      const found = await search("product_sku", sku);
      expect(found.status).toBe(200);
      const text = await found.text();
      // sent as the client takes it, item by item: no length is promised before the items are assembled
      expect(found.headers.get("content-length")).toBeNull();
      expect(text).toBe(`[${createdText}]`);
    }
  });

  it("an answer of several items is a JSON array of them in id order; none is []", async () => {
    const res = await search("product_sku", "ANS-1");
    const [one] = (await res.json()) as Array<{ id: number }>;
    expect(one?.id).toBeTypeOf("number");
    const none = await search("product_sku", "NO-SUCH");
    expect(await none.text()).toBe("[]");
    // two items of one uniqueness group member: `gtin` is a key of ANS-2's schema
    await t.call(
      "POST",
      ITEM,
      itemBody("ANS-4", {
        schema: { unique: [["gtin", "product_sku"]], type: "object" },
        productAttributes: { product_sku: "ANS-4", gtin: "0123" },
        barcodeList: [],
      }),
    );
    const both = (await (await search("gtin", "0123")).json()) as Array<{
      productAttributes: { product_sku: string };
    }>;
    expect(both.map((i) => i.productAttributes.product_sku)).toEqual(["ANS-2", "ANS-4"]);
  });

  it("keeps each item's answer size when it is written; an item without one is measured", async () => {
    const body = itemBody("ANS-SIZE", { description: "size kept", barcodeList: [{ barcode: "ANS-SIZE-A" }] });
    expect((await t.call("POST", ITEM, body)).status).toBe(200);
    const sqlite = t.agent.db.sqlite;
    const row = () =>
      sqlite.prepare("SELECT id, answer_bytes AS kept FROM items WHERE product_sku = 'ANS-SIZE'").get() as {
        id: number;
        kept: number | null;
      };
    const answered = async () => (await (await search("product_sku", "ANS-SIZE")).text()).slice(1, -1);
    expect(row().kept).toBe(Buffer.byteLength(await answered()));
    // written again with more: the kept size follows
    const more = itemBody("ANS-SIZE", {
      description: "size kept, and longer",
      barcodeList: [{ barcode: "ANS-SIZE-A" }, { barcode: "ANS-SIZE-B" }],
    });
    expect((await t.call("POST", ITEM, more)).status).toBe(200);
    const longer = await answered();
    expect(longer).toContain("ANS-SIZE-B");
    expect(row().kept).toBe(Buffer.byteLength(longer));
    // an item stored before sizes were kept: measured, the same answer and the same bound
    sqlite.prepare("UPDATE items SET answer_bytes = NULL WHERE id = ?").run(row().id);
    expect(await answered()).toBe(longer);
  });

  it("never parses the stored document: JSON.parse sees none of an item's imageData", async () => {
    const marker = "IMAGE-DATA-MARKER";
    const body = itemBody("ANS-BULK", { imageData: [marker, ...Array.from({ length: 5000 }, () => ({}))] });
    expect((await t.call("POST", ITEM, body)).status).toBe(200);
    const parse = vi.spyOn(JSON, "parse");
    const res = await search("product_sku", "ANS-BULK");
    const text = await res.text();
    const parsedTexts = parse.mock.calls.map(([s]) => String(s));
    parse.mockRestore();
    expect(text).toContain(marker);
    expect(parsedTexts.filter((s) => s.includes(marker))).toEqual([]);
    expect(parsedTexts.filter((s) => s.includes("{},{}"))).toEqual([]);
    expect((JSON.parse(text) as Array<{ imageData: unknown[] }>)[0]?.imageData).toHaveLength(5001);
  });
});
