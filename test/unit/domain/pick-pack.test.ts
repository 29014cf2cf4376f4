import { describe, expect, it } from "vitest";
import { configSchema } from "../../../src/config/config.schema.js";
import { DEFAULT_PACK_MARKERS, isPickPack } from "../../../src/domain/pick-pack.js";

/** docs/decisions.md "Pick+pack rule": the configured attributes decide, by default the box and label ones. */
describe("isPickPack", () => {
  const rows: Array<[Record<string, unknown> | null, boolean]> = [
    [{ packing_box_id: "B" }, true],
    [{ packing_box_type: "S" }, true],
    [{ carrier_label_url: "https://l" }, true],
    [{ order_number: "O-1", shipping_address: "1 Main St" }, false],
    [{ packing_box_id: null }, false],
    [null, false],
  ];
  it.each(rows)("default rule: line attributes %j → %s", (attributes, pack) => {
    expect(isPickPack([{ attributes: {} }, { attributes }], DEFAULT_PACK_MARKERS)).toBe(pack);
  });

  it("a configured rule decides: order_number listed makes an order_number line a pick+pack", () => {
    const { pick } = configSchema.parse({ pick: { packAttributes: "order_number, packing_box_id" } });
    expect(pick.packAttributes).toEqual(["order_number", "packing_box_id"]);
    expect(isPickPack([{ attributes: { order_number: "O-1" } }], pick.packAttributes)).toBe(true);
    expect(isPickPack([{ attributes: { carrier_label_url: "u" } }], pick.packAttributes)).toBe(false);
  });

  it("the configuration refuses a name that is no pack attribute", () => {
    expect(configSchema.safeParse({ pick: { packAttributes: ["colour"] } }).success).toBe(false);
  });
});
