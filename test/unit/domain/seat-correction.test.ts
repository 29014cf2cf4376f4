/** A unit put wrong after a confirm, corrected at the seat (docs/station.md#undo): the pure decisions. */
import { describe, expect, it } from "vitest";
import {
  decideBinCorrection,
  decidePutCorrection,
  type LastConfirmed,
} from "../../../src/domain/seat-correction.js";

const put: LastConfirmed = { kind: "put", request: "U1", uid: 7, slot: "S1", quantity: 2 };
const pick: LastConfirmed = { kind: "pick", request: "O1", bin: "1", quantity: 1 };
const here = { targetAtStation: true, onHandAtRecorded: 2 };

describe("correcting the last put", () => {
  it("moves the put's units from the slot recorded to the one named", () => {
    expect(decidePutCorrection(put, "S2", here)).toEqual({
      ok: true,
      value: { uid: 7, from: "S1", to: "S2", quantity: 2 },
    });
  });

  it.each([
    ["nothing confirmed", null, "S2", here, "nothing_to_correct"],
    ["the last confirm a pick", pick, "S2", here, "nothing_to_correct"],
    ["the slot recorded", put, "S1", here, "same_slot"],
    ["a slot of no rack at the station", put, "S9", { ...here, targetAtStation: false }, "slot_not_in_rack"],
    ["the units gone from the slot", put, "S2", { ...here, onHandAtRecorded: 1 }, "units_gone"],
  ] as const)("is refused for %s", (_, last, to, facts, reason) => {
    expect(decidePutCorrection(last, to, facts)).toEqual({ ok: false, reason });
  });
});

describe("a unit of the last pick in the wrong bin", () => {
  it("takes it out of the bin named and puts it into the order's own", () => {
    expect(decideBinCorrection(pick, "3", ["1", "2", "3"])).toEqual({
      ok: true,
      value: { request: "O1", from: "3", to: "1" },
    });
  });

  it.each([
    ["nothing confirmed", null, "3", "nothing_to_correct"],
    ["the last confirm a put", put, "3", "nothing_to_correct"],
    ["a bin the station has not", pick, "9", "bin_unknown"],
    ["the order's own bin", pick, "1", "same_bin"],
  ] as const)("is refused for %s", (_, last, bin, reason) => {
    expect(decideBinCorrection(last, bin, ["1", "2", "3"])).toEqual({ ok: false, reason });
  });
});
