import { describe, expect, it } from "vitest";
import { stepSeat } from "../../../src/station/seat.machine.js";
import {
  bin,
  fmt,
  item,
  keyin,
  PUT_CONFIRM,
  PUT_SLOT,
  put,
  READY_STATE as READY,
  row,
  scan,
  slot,
  tote,
} from "./support.js";

const P = { mode: "put" as const, puts: [put()] };
const BACK = { ...P, seat: "back" };

// docs/architecture.md#put made physical: item from the tote → target slot → confirm (button or key-in).
const rows = [
  row(
    "item of a staged put lights its tote",
    READY,
    scan("BC-A", [item()], P),
    "put_slot put_item | lit 3=1",
  ),
  row("item no put expects", READY, scan("BC-A", [item()], { mode: "put" }), "refused not_expected"),
  row("tote wins over item", READY, scan("T1", [item(), tote()], P), "ready tote_selected | lit none", {
    tote: "U1",
  }),
  row(
    "tote of a complete put",
    READY,
    scan("T1", [tote("complete")], P),
    "ready released | release U1, lit none",
  ),
  row("tote of a put not staged", READY, scan("T1", [tote("created")], P), "refused not_expected"),
  row(
    "item of another tote",
    { step: "ready", tote: "U2" },
    scan("BC-A", [item()], P),
    "refused not_expected",
  ),
  row(
    "item expected no more",
    READY,
    scan("BC-A", [item()], { mode: "put", puts: [put({ left: 0 })] }),
    "put_slot put_item | lit 3=1",
  ),
  row("same item again", PUT_SLOT, scan("BC-A", [item()], P), "put_slot counted | lit 3=3", { quantity: 3 }),
  row("another item before the slot", PUT_SLOT, scan("BC-B", [item(2, "B")], P), "refused finish_first"),
  row("target slot", PUT_SLOT, scan("S9", [slot("S9")], P), "put_confirm slot_selected | lit 3=2 slot S9=2"),
  row(
    "another target slot",
    PUT_CONFIRM,
    scan("S8", [slot("S8")], P),
    "put_confirm slot_selected | lit 3=2 slot S8=2",
  ),
  row(
    "target slot not presented",
    PUT_SLOT,
    scan("S9", [slot("S9", false)], P),
    "refused slot_not_presented",
  ),
  row("key-in sets the quantity", PUT_SLOT, keyin(4, P), "put_slot quantity_set | lit 3=4"),
  row("confirm before the slot", PUT_SLOT, bin("3", "confirm", P), "refused not_this_step"),
  row("tote bin's button puts", PUT_CONFIRM, bin("3", "confirm", P), "ready put | put U1/#1@S9x2, lit none"),
  row("EXC-CONFIRM puts", PUT_CONFIRM, scan("EXC-CONFIRM", [], P), "ready put | put U1/#1@S9x2, lit none"),
  row("key-in confirms", PUT_CONFIRM, keyin(5, P), "ready put | put U1/#1@S9x5, lit none"),
  row("key-in above the expected", PUT_CONFIRM, keyin(6, P), "refused more_than_expected"),
  row(
    "damaged, front",
    PUT_CONFIRM,
    scan("EXC-PHYSICALLY_DAMAGED", [], P),
    "ready put_exception | front_physically_damaged U1/#1x2, lit none",
  ),
  row(
    "missing, front",
    PUT_SLOT,
    scan("EXC-ITEM_MISSING", [], P),
    "ready put_exception | front_missing U1/#1x2, lit none",
  ),
  row(
    "oversized, back",
    PUT_SLOT,
    scan("EXC-OVERSIZED", [], BACK),
    "ready put_exception | back_oversized_entities U1/#1x2, lit none",
  ),
  row(
    "oversized is not a front state",
    PUT_SLOT,
    scan("EXC-OVERSIZED", [], P),
    "refused exception_not_applicable",
  ),
  row(
    "missing is not a back state",
    PUT_SLOT,
    scan("EXC-ITEM_MISSING", [], BACK),
    "refused exception_not_applicable",
  ),
  row(
    "excess",
    PUT_SLOT,
    scan("EXC-EXCESS", [], P),
    "ready put_exception | front_excess_entities U1/#1x2, lit none",
  ),
  row(
    "cancel keeps the tote",
    { ...PUT_SLOT, tote: "U1" },
    scan("EXC-CANCEL", [], P),
    "ready cancelled | lit none",
    { tote: "U1" },
  ),
  row("a beam does not put", PUT_CONFIRM, bin("3", "sensor", P), "put_confirm ignored | lit 3=2 slot S9=2"),
  row("shortage is a pick button", PUT_CONFIRM, bin("3", "shortage", P), "refused not_this_step"),
];

describe("seat machine: put", () => {
  it.each(rows)("$name", (r) => {
    const out = stepSeat(r.start, r.input);
    expect(fmt(out)).toBe(r.want);
    if (r.state && out.ok) expect(out.state).toMatchObject(r.state);
  });
});
