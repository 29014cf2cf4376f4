import { describe, expect, it } from "vitest";
import { stepSeat } from "../../../src/station/seat.machine.js";
import { rememberStep, undoOf } from "../../../src/station/seat.undo.js";
import { bin, item, PUT_CONFIRM, PUT_SLOT, put, READY_STATE as READY, scan, slot } from "./support.js";

// docs/station.md#undo: the last scan that committed nothing is taken back; a confirm is not.
const P = { mode: "put" as const, puts: [put()] };

describe("undo at a seat", () => {
  it("takes the item's scan back: the seat is ready again, as before the scan", () => {
    const step = stepSeat(READY, scan("BC-A", [item()], P));
    expect(step.ok).toBe(true);
    if (!step.ok) return;
    const memory = rememberStep(READY, step, true);
    expect(undoOf(memory, step.state)).toEqual({ ok: true, state: READY });
  });

  it("takes the slot's scan back to the counted item", () => {
    const step = stepSeat(PUT_SLOT, scan("S9", [slot("S9")], P));
    if (!step.ok) throw new Error("the slot was refused");
    expect(undoOf(rememberStep(PUT_SLOT, step, true), step.state)).toEqual({ ok: true, state: PUT_SLOT });
  });

  it("refuses after a confirm, sending the operator to a supervisor", () => {
    const step = stepSeat(PUT_CONFIRM, bin("3", "confirm", P));
    if (!step.ok) throw new Error("the confirm was refused");
    const v = undoOf(rememberStep(PUT_CONFIRM, step, false), step.state);
    expect(v).toMatchObject({ ok: false, reason: "undo_after_confirm" });
  });

  it("has nothing to take back when the seat moved on, when nothing changed, or for a button", () => {
    const step = stepSeat(READY, scan("BC-A", [item()], P));
    if (!step.ok) throw new Error("the item was refused");
    const memory = rememberStep(READY, step, true);
    // another input since: the remembered step is not the seat's any more
    expect(undoOf(memory, PUT_CONFIRM)).toMatchObject({ ok: false, reason: "nothing_to_undo" });
    expect(rememberStep(READY, step, false)).toBeNull();
    expect(undoOf(null, READY)).toMatchObject({ ok: false, reason: "nothing_to_undo" });
    const refused = stepSeat(READY, scan("BC-A", [item()], { mode: "put" }));
    expect(rememberStep(READY, refused, true)).toBeNull();
  });
});
