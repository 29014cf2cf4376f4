import { beforeAll, describe, expect, it } from "vitest";
import { createItemsRepo, type ItemsRepo } from "../../../src/db/items.repo.js";
import { openDatabase } from "../../../src/db/open.js";

/**
 * Filter resolution over the unique-attribute index (docs/decisions.md "Work limits"): the work is
 * what the most selective filter matches, whatever the others, and a value or filter repeated adds none.
 */
let items: ItemsRepo;
const ids: number[] = [];
beforeAll(() => {
  const { sqlite } = openDatabase(":memory:");
  items = createItemsRepo(sqlite);
  for (let i = 0; i < 200; i++) {
    const item = {
      clientItemId: null,
      productSku: `S${i}`,
      clientCategoryId: null,
      schemaJson: "{}",
      ownSchema: true,
      doc: "{}",
    };
    const id = items.insert(item, 0);
    items.replaceKeys(id, [
      ["product_sku", `S${i}`],
      ["client_id", "C1"],
    ]);
    ids.push(id);
  }
});

describe("items.matchAll", () => {
  it("resolves several filters to the items matching all of them", () => {
    const m = items.matchAll([
      { key: "client_id", values: ["C1"] },
      { key: "product_sku", values: ["S3", "S7", "nope"] },
    ]);
    expect(m).toMatchObject({ ok: true, ids: [ids[3], ids[7]] });
  });

  it("a selective filter beside a broad one reads a few rows, not the broad one's 200", () => {
    const m = items.matchAll([
      { key: "client_id", values: ["C1"] },
      { key: "product_sku", values: ["S5"] },
    ]);
    expect(m.ok && m.ids).toEqual([ids[5]]);
    expect(m.rowsRead).toBeLessThan(12);
  });

  it("a value repeated in a list, or a filter repeated, reads no more rows", () => {
    const once = items.matchAll([{ key: "client_id", values: ["C1"] }]);
    const repeated = items.matchAll([{ key: "client_id", values: Array(100).fill("C1") }]);
    expect(once.ok && once.ids).toHaveLength(200);
    expect(repeated.rowsRead).toBe(once.rowsRead);
  });

  it("stops once more than maxRows index rows would be read, resolving nothing", () => {
    expect(items.matchAll([{ key: "client_id", values: ["C1"] }], 50)).toEqual({ ok: false, rowsRead: 51 });
    const two = items.matchAll(
      [
        { key: "client_id", values: ["C1"] },
        { key: "product_sku", values: ids.map((_, i) => `S${i}`) },
      ],
      50,
    );
    expect(two.ok).toBe(false);
    expect(two.rowsRead).toBeLessThanOrEqual(2 * 64 + 64);
  });
});
