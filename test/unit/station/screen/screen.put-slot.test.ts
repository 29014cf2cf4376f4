/**
 * The put card before the slot is scanned (docs/station.md#paths-of-a-shift): the item and a suggested
 * slot, where the same item already is on the presented racks, else an empty slot.
 */
import { describe, expect, it } from "vitest";
import { suggestedSlot } from "../../../../src/station/screen/state/put-slot.js";
import { deriveScreen } from "../../../../src/station/screen/state/state.js";
import { PUT_SLOT } from "../support.js";
import { putRow, screenInput } from "./support.js";

const SLOTS = [
  { slot: "M1-A1", itemId: 7 },
  { slot: "M1-A2", itemId: null },
  { slot: "M1-B1", itemId: 1 },
  { slot: "M1-B1", itemId: 9 },
  { slot: "M1-B2", itemId: null },
];

describe("the suggested slot of a put", () => {
  it.each([
    ["the slot that holds the item already", SLOTS, 1, "M1-B1"],
    ["else the first empty slot", SLOTS, 5, "M1-A2"],
    ["a slot holding other items is not empty", [{ slot: "S1", itemId: 7 }], 5, null],
    ["no rack presented: none", [], 1, null],
  ])("%s", (_name, slots, itemId, want) => {
    expect(suggestedSlot(slots, itemId)).toBe(want);
  });

  it("the put card shows the tote's item, the suggested slot on its rack face and the tote's bin", () => {
    const row = putRow({ description: "item A", imageUrl: "https://img/a.png" });
    const s = deriveScreen(screenInput({ mode: "put", puts: [row], slots: SLOTS }, PUT_SLOT));
    expect(s.card).toEqual({
      phase: "put",
      row,
      slot: "M1-B1",
      face: { rows: 2, cols: 2, row: 2, col: 1 },
      quantity: 2,
      line: 1,
      lines: 1,
      bin: "3",
      binColor: "green",
      suggested: true,
    });
  });

  it("with no slot to suggest, the card still names the item and says to scan a slot", () => {
    const s = deriveScreen(screenInput({ mode: "put", puts: [putRow()], slots: [] }, PUT_SLOT));
    expect(s.card).toMatchObject({ slot: "", face: null, suggested: true, row: { sku: "A" } });
  });
});
