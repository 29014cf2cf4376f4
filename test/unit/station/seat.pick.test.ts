import { describe, expect, it } from "vitest";
import { stepSeat } from "../../../src/station/seat.machine.js";
import {
  bin,
  fmt,
  item,
  keyin,
  msu,
  PICKING,
  pick,
  READY_STATE as READY,
  row,
  scan,
  slot,
} from "./support.js";

const picks = [pick()];
const PICKED = "ready picked | pick P1/P1-L1@S1x3, lit none";

// docs/architecture.md#pick made physical: scan the item (or slot) → the bin lights → button or beam confirms.
const rows = [
  row(
    "item with work lights its bin",
    READY,
    scan("BC-A", [item()], { picks }),
    "pick_confirm bin_lit | lit 2=3",
  ),
  row("item without work", READY, scan("BC-A", [item()]), "refused no_work"),
  row(
    "slot with work lights its bin",
    READY,
    scan("S1", [slot()], { picks }),
    "pick_confirm bin_lit | lit 2=3",
  ),
  row(
    "slot of a rack not presented",
    READY,
    scan("S1", [slot("S1", false)], { picks }),
    "refused slot_not_presented",
  ),
  row(
    "item wins over slot",
    READY,
    scan("X", [slot("S7"), item()], { picks }),
    "pick_confirm bin_lit | lit 2=3",
  ),
  row(
    "MSU presents its rack",
    READY,
    scan("M1", [msu()]),
    "ready rack_presented | present M1[S1,S2], lit none",
  ),
  row(
    "MSU already presented",
    READY,
    scan("M1", [msu("M1", true)]),
    "ready rack_already_presented | lit none",
  ),
  row("unknown barcode", READY, scan("??", []), "refused unknown_barcode"),
  row(
    "a packing level's barcode is not one unit",
    READY,
    scan("CASE-A", [{ kind: "level", itemId: 1, sku: "A", levelPath: "level.0" }], { picks }),
    "refused level_barcode",
  ),
  row(
    "a level's barcode while a bin is lit",
    PICKING,
    scan("CASE-A", [{ kind: "level", itemId: 1, sku: "A", levelPath: "level.0" }]),
    "refused level_barcode",
  ),
  row("nobody logged in", READY, scan("BC-A", [item()], { picks, user: null }), "refused not_logged_in"),
  row("badge logs in", READY, scan("BADGE-bob", [], { user: null }), "ready logged_in | login bob, lit none"),
  row("own badge logs out", READY, scan("BADGE-alice", []), "ready logged_out | logout, lit none"),
  row("another badge at a taken seat", READY, scan("BADGE-bob", []), "refused seat_taken"),
  row("badge while a bin is lit", PICKING, scan("BADGE-alice", []), "refused finish_first"),
  // work kept over an idle sign-out (docs/station.md#idle-logout): the next operator takes it over
  row(
    "badge at an empty seat holding a lit bin",
    PICKING,
    scan("BADGE-bob", [], { user: null }),
    "pick_confirm logged_in | login bob, lit 2=3",
  ),
  row("badge without a user", READY, scan("BADGE-", []), "refused bad_code"),
  row("the lit bin's button picks", PICKING, bin("2"), PICKED),
  row("the lit bin's beam picks", PICKING, bin("2", "sensor"), PICKED),
  row("EXC-CONFIRM picks", PICKING, scan("EXC-CONFIRM", []), PICKED),
  row("another bin's button", PICKING, bin("5"), "refused not_this_step"),
  row(
    "shortage button",
    PICKING,
    bin("2", "shortage"),
    "ready pick_exception | item_missing P1/P1-L1x3, lit none",
  ),
  row(
    "EXC-ITEM_MISSING",
    PICKING,
    scan("EXC-ITEM_MISSING", []),
    "ready pick_exception | item_missing P1/P1-L1x3, lit none",
  ),
  row(
    "EXC-PHYSICALLY_DAMAGED",
    PICKING,
    scan("EXC-PHYSICALLY_DAMAGED", []),
    "ready pick_exception | physically_damaged P1/P1-L1x3, lit none",
  ),
  row(
    "EXC-UNSCANNABLE",
    PICKING,
    scan("EXC-UNSCANNABLE", []),
    "ready pick_exception | unscannable P1/P1-L1x3, lit none",
  ),
  row("a put-only exception", PICKING, scan("EXC-OVERSIZED", []), "refused exception_not_applicable"),
  row("EXC-CANCEL", PICKING, scan("EXC-CANCEL", []), "ready cancelled | lit none"),
  row("key-in picks that many", PICKING, keyin(2), "ready picked | pick P1/P1-L1@S1x2, lit none"),
  row("key-in above the lit quantity", PICKING, keyin(4), "refused more_than_expected"),
  row("another item while a bin is lit", PICKING, scan("BC-A", [item()], { picks }), "refused finish_first"),
  row("cancel, nothing pending", READY, scan("EXC-CANCEL", []), "refused nothing_pending"),
  row("confirm, nothing pending", READY, scan("EXC-CONFIRM", []), "refused nothing_pending"),
  row("exception, nothing pending", READY, scan("EXC-ITEM_MISSING", []), "refused nothing_pending"),
  row("unknown exception code", READY, scan("EXC-BOGUS", []), "refused bad_code"),
  row("key-in, nothing pending", READY, keyin(1), "refused nothing_pending"),
  row("a button, nothing lit", READY, bin("2"), "refused not_this_step"),
  row("a beam, nothing lit", READY, bin("2", "sensor"), "ready ignored | lit none"),
  row("work gone elsewhere", PICKING, { type: "changed", stillValid: false }, "ready dropped | lit none"),
  row("work still there", PICKING, { type: "changed", stillValid: true }, "pick_confirm unchanged | lit 2=3"),
];

describe("seat machine: pick", () => {
  it.each(rows)("$name", (r) => {
    expect(fmt(stepSeat(r.start, r.input))).toBe(r.want);
  });

  it("a refusal carries no state and no calls: the seat keeps what it had", () => {
    const out = stepSeat(PICKING, scan("BADGE-bob", []));
    expect(out).not.toHaveProperty("state");
    expect(out).not.toHaveProperty("calls");
  });
});
