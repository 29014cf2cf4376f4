import { describe, expect, it } from "vitest";
import { mergeAttributes, mergeLines, type StoredLine } from "../../../src/domain/pick-modify.js";

const stored: StoredLine[] = [
  { externalId: "L1", expected: 1, filters: ["product_sku = 'A'"], attributes: null },
  { externalId: "L2", expected: 2, filters: ["product_sku = 'B'"], attributes: { order_number: "O-1" } },
];

describe("pick modify: a partial update", () => {
  it("attribute members given replace, null removes, others are kept; null as a whole clears", () => {
    const before = { simple_priority: "high", order_options: { bintags: ["x"] }, pick_before_time: "t1" };
    expect(mergeAttributes(before, { pick_before_time: "t2", simple_priority: null })).toEqual({
      order_options: { bintags: ["x"] },
      pick_before_time: "t2",
    });
    expect(mergeAttributes(before, undefined)).toBe(before);
    expect(mergeAttributes(before, null)).toBeNull();
    expect(mergeAttributes({ a: 1 }, { a: null })).toBeNull();
  });

  it("lines are matched by id: changed by what they give, added when new, removed by quantity 0", () => {
    const plan = mergeLines(stored, [
      { externalId: "L2", quantity: 5, attributes: { order_number: null, packing_box_id: "B" } },
      { externalId: "L3", quantity: 1, filters: ["product_sku = 'C'"] },
      { externalId: "L1", quantity: 0 },
    ]);
    expect(plan).toEqual({
      ok: true,
      removed: ["L1"],
      lines: [
        {
          externalId: "L2",
          expected: 5,
          filters: ["product_sku = 'B'"],
          attributes: { packing_box_id: "B" },
          origin: "changed",
        },
        { externalId: "L3", expected: 1, filters: ["product_sku = 'C'"], attributes: null, origin: "added" },
      ],
    });
    expect(mergeLines(stored, undefined)).toMatchObject({ ok: true, removed: [], lines: [{}, {}] });
  });

  it("refuses a new line without quantity or filters, removing an unknown line, and removing them all", () => {
    const paths = (p: ReturnType<typeof mergeLines>) => (p.ok ? [] : p.errors.map((e) => e.path));
    expect(paths(mergeLines(stored, [{ externalId: "L9", quantity: 1 }]))).toEqual([
      "serviceRequests.0.expectations.containers.0.products.0.productAttributes.filter_parameters",
    ]);
    expect(paths(mergeLines(stored, [{ externalId: "L9", quantity: 0 }]))).toEqual([
      "serviceRequests.0.expectations.containers.0.products.0.productQuantity",
    ]);
    const all = [
      { externalId: "L1", quantity: 0 },
      { externalId: "L2", quantity: 0 },
    ];
    expect(paths(mergeLines(stored, all))).toEqual(["serviceRequests"]);
  });
});
