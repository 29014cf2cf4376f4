/**
 * The unscannable path of a lit pick (docs/station.md#paths-of-a-shift, "Unscannable"): the slot whose
 * label identifies the item, and what a write-off settles (the units not yet scanned).
 */
import { describe, expect, it } from "vitest";
import { deriveScreen } from "../../../../src/station/screen/state/state.js";
import { PICKING, pick } from "../support.js";
import { pickRow, screenInput } from "./support.js";

describe("the unscannable path", () => {
  it("a lit pick: its slot, bin and order; a write-off settles the whole lit quantity", () => {
    const s = deriveScreen(screenInput({ pickLines: [pickRow()] }, PICKING));
    expect(s.unscannable).toEqual({ slot: "S1", bin: "2", order: "P1", scanEach: false, writeOff: 3 });
  });

  it("a scan-required pick: the units scanned are picked, the rest written off", () => {
    const state = { step: "pick_confirm" as const, pick: pick({ scanRequired: true }), scanned: 2 };
    expect(deriveScreen(screenInput({}, state)).unscannable).toMatchObject({ scanEach: true, writeOff: 1 });
  });

  it("none before a scan, in put, or logged out", () => {
    expect(deriveScreen(screenInput({ pickLines: [pickRow()] })).unscannable).toBeNull();
    expect(deriveScreen(screenInput({ operator: null }, PICKING)).unscannable).toBeNull();
  });
});
