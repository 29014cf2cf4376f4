import { describe, expect, it } from "vitest";
import { stepSeat } from "../../../src/station/seat.machine.js";
import { audit, COUNTING, fmt, item, keyin, READY_STATE as READY, row, scan, slot } from "./support.js";

const A = { mode: "audit" as const, audit: audit() };
const KQ = { mode: "audit" as const, audit: audit(true) };
const CLOSE_S1 = "count AU1-1=2, count AU1-2=0";

// docs/architecture.md#audit: scans count items at the line's location; key-in where kq.
const rows = [
  row("no audit being counted", READY, scan("S1", [slot()], { mode: "audit" }), "refused no_audit"),
  row("slot starts its count", READY, scan("S1", [slot()], A), "audit_count location_selected | lit none", {
    location: "S1",
  }),
  row("slot not in the audit", READY, scan("S9", [slot("S9")], A), "refused not_expected"),
  row("item at its only slot", READY, scan("BC-C", [item(3, "C")], A), "audit_count counted | lit none", {
    location: "S3",
    counts: { "AU1-4": 1 },
  }),
  row("item at several slots", READY, scan("BC-A", [item()], A), "refused not_this_step"),
  row("each scan counts one", COUNTING, scan("BC-A", [item()], A), "audit_count counted | lit none", {
    counts: { "AU1-1": 3 },
  }),
  row("item not at this slot", COUNTING, scan("BC-C", [item(3, "C")], A), "refused not_expected"),
  row(
    "next slot closes the last",
    COUNTING,
    scan("S2", [slot("S2")], A),
    `audit_count location_selected | ${CLOSE_S1}, lit none`,
    { location: "S2", counts: {} },
  ),
  row("same slot again", COUNTING, scan("S1", [slot()], A), "audit_count location_selected | lit none", {
    counts: { "AU1-1": 2 },
  }),
  row(
    "EXC-CONFIRM closes the slot",
    COUNTING,
    scan("EXC-CONFIRM", [], A),
    `ready location_counted | ${CLOSE_S1}, lit none`,
  ),
  row("key-in where kq", COUNTING, keyin(7, KQ), "audit_count quantity_set | lit none", {
    counts: { "AU1-1": 7 },
  }),
  row("key-in without kq", COUNTING, keyin(7, A), "refused keyin_not_allowed"),
  row("cancel drops the counts", COUNTING, scan("EXC-CANCEL", [], A), "ready cancelled | lit none"),
  row(
    "an exception is not an audit move",
    COUNTING,
    scan("EXC-ITEM_MISSING", [], A),
    "refused nothing_pending",
  ),
  row(
    "audit gone meanwhile",
    COUNTING,
    scan("EXC-CONFIRM", [], { mode: "audit" }),
    "ready dropped | lit none",
  ),
];

describe("seat machine: audit", () => {
  it.each(rows)("$name", (r) => {
    const out = stepSeat(r.start, r.input);
    expect(fmt(out)).toBe(r.want);
    if (r.state && out.ok) expect(out.state).toMatchObject(r.state);
  });
});
