/**
 * A unit whose barcode cannot be read (docs/station.md#paths-of-a-shift, "Unscannable"): while a bin is
 * lit, the label of the pick's own slot identifies the item there, so it counts a unit of a
 * scan-required pick as the item's own barcode would; another slot's label does not, and for an item
 * that is not scanned unit by unit the lit bin needs no further scan.
 */
import { describe, expect, it } from "vitest";
import { stepSeat } from "../../../src/station/seat.machine.js";
import type { SeatState } from "../../../src/station/seat.types.js";
import { fmt, pick, row, scan, slot } from "./support.js";

const EACH: SeatState = { step: "pick_confirm", pick: pick({ scanRequired: true }), scanned: 1 };
const LAST: SeatState = { step: "pick_confirm", pick: pick({ scanRequired: true }), scanned: 2 };
const PLAIN: SeatState = { step: "pick_confirm", pick: pick() };

const rows = [
  row(
    "the slot's label counts a unit",
    EACH,
    scan("S1", [slot("S1")]),
    "pick_confirm unit_scanned | lit 2=1",
    {
      scanned: 2,
    },
  ),
  row(
    "the slot's label for the last unit confirms the pick",
    LAST,
    scan("S1", [slot("S1")]),
    "ready picked | pick P1/P1-L1@S1x3, lit none",
  ),
  row("another slot's label counts nothing", EACH, scan("S2", [slot("S2")]), "refused finish_first"),
  row(
    "an item not scanned unit by unit: finish first",
    PLAIN,
    scan("S1", [slot("S1")]),
    "refused finish_first",
  ),
];

describe("seat machine: the slot's label for an unscannable unit", () => {
  it.each(rows)("$name", (r) => {
    const out = stepSeat(r.start, r.input);
    expect(fmt(out)).toBe(r.want);
    if (r.state && out.ok) expect(out.state).toMatchObject(r.state);
    if (out.ok) expect(out.resolved.as).toBe("slot");
  });
});
