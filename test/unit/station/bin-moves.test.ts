/** A unit of a confirmed pick in the wrong bin (docs/station.md#undo): what the bins' lights show for it. */
import { describe, expect, it } from "vitest";
import { binMoveLights, moveOfBin } from "../../../src/station/bin-moves.js";

describe("the lights of a bin move", () => {
  it("blink red on the bin to take the unit out of and green on the order's own bin", () => {
    const moves = new Map([["front", { from: "2", to: "1" }]]);
    expect(Object.fromEntries(binMoveLights(moves))).toEqual({
      "2": { mode: "show", color: "red", blink: true },
      "1": { mode: "show", color: "green", blink: true },
    });
    expect(binMoveLights(undefined).size).toBe(0);
  });

  it("a bin of a move names its seat; any other bin none", () => {
    const moves = new Map([
      ["front", { from: "2", to: "1" }],
      ["back", { from: "4", to: "3" }],
    ]);
    expect([moveOfBin(moves, "1"), moveOfBin(moves, "4"), moveOfBin(moves, "5")]).toEqual([
      "front",
      "back",
      null,
    ]);
  });
});
