/**
 * Scan-required items (product attribute `scan_required`): every unit is scanned, the scan that reaches
 * the quantity confirms, key-in and one-scan-for-all are refused with `scan_each_unit`. Other items keep
 * one scan + confirm. Also the audit's damaged / unscannable exceptions.
 */
import { describe, expect, it } from "vitest";
import { stepSeat } from "../../../src/station/seat.machine.js";
import type { DataMeaning, SeatState } from "../../../src/station/seat.types.js";
import {
  audit,
  bin,
  COUNTING,
  fmt,
  keyin,
  PUT_CONFIRM,
  PUT_SLOT,
  pick,
  put,
  READY_STATE as READY,
  row,
  scan,
  slot,
} from "./support.js";

const each = (itemId = 1, sku = "A"): DataMeaning => ({ kind: "item", itemId, sku, scanRequired: true });
const picks = [pick({ scanRequired: true })];
const LIT: SeatState = { step: "pick_confirm", pick: pick({ scanRequired: true }), scanned: 1 };
const TWO: SeatState = { step: "pick_confirm", pick: pick({ scanRequired: true }), scanned: 2 };
const EACH_PUT_SLOT: SeatState = { ...PUT_SLOT, put: put({ scanRequired: true }) };
const EACH_PUT_CONFIRM: SeatState = { ...PUT_CONFIRM, put: put({ scanRequired: true }) } as SeatState;
const A = { mode: "audit" as const, audit: audit(true) };
const counting = (over: object): SeatState => ({
  ...(COUNTING as Extract<SeatState, { step: "audit_count" }>),
  ...over,
});

const rows = [
  row(
    "first scan lights the bin, one counted",
    READY,
    scan("BC-A", [each()], { picks }),
    "pick_confirm bin_lit | lit 2=2",
    {
      scanned: 1,
    },
  ),
  row(
    "a slot scan lights it, none counted",
    READY,
    scan("S1", [slot()], { picks }),
    "pick_confirm bin_lit | lit 2=3",
    {
      scanned: 0,
    },
  ),
  row("the next unit counts", LIT, scan("BC-A", [each()]), "pick_confirm unit_scanned | lit 2=1", {
    scanned: 2,
  }),
  row(
    "the last unit confirms the whole quantity",
    TWO,
    scan("BC-A", [each()]),
    "ready picked | pick P1/P1-L1@S1x3, lit none",
  ),
  row(
    "one unit to pick: its scan is the last",
    READY,
    scan("BC-A", [each()], { picks: [pick({ scanRequired: true, quantity: 1 })] }),
    "ready picked | pick P1/P1-L1@S1x1, lit none",
  ),
  row("another item while lit", LIT, scan("BC-B", [each(2, "B")]), "refused finish_first"),
  row("the button before every unit is scanned", LIT, bin("2"), "refused scan_each_unit"),
  row("EXC-CONFIRM likewise", LIT, scan("EXC-CONFIRM", []), "refused scan_each_unit"),
  row("key-in is refused", LIT, keyin(3), "refused scan_each_unit"),
  row("the beam is ignored, not a confirm", LIT, bin("2", "sensor"), "pick_confirm ignored | lit 2=2"),
  row(
    "missing after two scans: two picked, one short",
    TWO,
    scan("EXC-ITEM_MISSING", []),
    "ready pick_exception | pick P1/P1-L1@S1x2, item_missing P1/P1-L1x1, lit none",
  ),
  row("cancel drops the count", TWO, scan("EXC-CANCEL", []), "ready cancelled | lit none"),
  // put: the item's flag travels with the put; key-in is refused, scans count
  row(
    "put: a scan-required item starts the put",
    READY,
    scan("BC-A", [each()], { mode: "put", puts: [put()] }),
    "put_slot put_item | lit 3=1",
    { put: { scanRequired: true } },
  ),
  row(
    "put: key-in of the count is refused",
    EACH_PUT_SLOT,
    keyin(4, { mode: "put" }),
    "refused scan_each_unit",
  ),
  row(
    "put: key-in confirm is refused",
    EACH_PUT_CONFIRM,
    keyin(2, { mode: "put" }),
    "refused scan_each_unit",
  ),
  row(
    "put: the button puts the scanned count",
    EACH_PUT_CONFIRM,
    bin("3", "confirm", { mode: "put" }),
    "ready put | put U1/#1@S9x2, lit none",
  ),
  // audit: key-in after a scan-required item is refused; exceptions count damaged / unscannable
  row(
    "audit: key-in after a scan-required item",
    counting({ lastScanRequired: true }),
    keyin(5, A),
    "refused scan_each_unit",
  ),
  row(
    "audit: damaged counts one for the last line",
    COUNTING,
    scan("EXC-PHYSICALLY_DAMAGED", [], A),
    "audit_count audit_damaged | lit none",
    {
      damaged: { "AU1-1": 1 },
    },
  ),
  row(
    "audit: unscannable with nothing scanned, two lines open",
    counting({ last: null }),
    scan("EXC-UNSCANNABLE", [], A),
    "refused not_this_step",
  ),
  row(
    "audit: unscannable with one line open at the slot",
    counting({ location: "S2", last: null, counts: {} }),
    scan("EXC-UNSCANNABLE", [], A),
    "audit_count audit_unscannable | lit none",
    { unscannable: { "AU1-3": 1 } },
  ),
  row(
    "audit: closing the slot reports damaged and unscannable",
    counting({ damaged: { "AU1-1": 1 }, unscannable: { "AU1-2": 2 } }),
    scan("EXC-CONFIRM", [], A),
    "ready location_counted | count AU1-1=2, count AU1-2=0, lit none",
  ),
];

describe("seat machine: scan-required items and audit exceptions", () => {
  it.each(rows)("$name", (r) => {
    const out = stepSeat(r.start, r.input);
    expect(fmt(out)).toBe(r.want);
    if (r.state && out.ok) expect(out.state).toMatchObject(r.state);
  });

  it("closing a slot carries the damaged and unscannable counts into the audit count", () => {
    const out = stepSeat(
      counting({ damaged: { "AU1-1": 1 }, unscannable: { "AU1-2": 2 } }),
      scan("EXC-CONFIRM", [], A),
    );
    const calls = out.ok ? out.calls : [];
    expect(calls).toEqual([
      {
        op: "auditCount",
        auditId: "AU1",
        input: { audit_line_id: "AU1-1", good_qty: 2, damaged_qty: 1, unscannable_qty: 0 },
      },
      {
        op: "auditCount",
        auditId: "AU1",
        input: { audit_line_id: "AU1-2", good_qty: 0, damaged_qty: 0, unscannable_qty: 2 },
      },
    ]);
  });

  it("items without the flag keep one scan + confirm for the whole quantity", () => {
    const lit = stepSeat(READY, scan("BC-A", [{ kind: "item", itemId: 1, sku: "A" }], { picks: [pick()] }));
    expect(fmt(lit)).toBe("pick_confirm bin_lit | lit 2=3");
    if (!lit.ok) return;
    expect(fmt(stepSeat(lit.state, keyin(2)))).toBe("ready picked | pick P1/P1-L1@S1x2, lit none");
  });
});
