/**
 * The seat machine's capture steps (src/station/seat.capture.ts, docs/capture.md#at-the-seat), pure:
 * what lights, what is asked, what is taken or refused, and the pick call with the captured values.
 */
import { describe, expect, it } from "vitest";
import { stepSeat } from "../../../src/station/seat.machine.js";
import type { DataMeaning, OpCall, SeatState, SeatStep } from "../../../src/station/seat.types.js";
import { bin, item, keyin, pick, READY_STATE, scan, slot } from "./support.js";

const TODAY = "2026-11-21";
const SERIAL = pick({ capture: ["serial", "expiry"], quantity: 2, scanRequired: true });
const LOT = pick({ capture: ["lot"], quantity: 3 });
const at = (over: object = {}) => ({ picks: [SERIAL], today: TODAY, ...over });
const gs1Item = (gs1: Record<string, string>): DataMeaning => ({ kind: "item", itemId: 1, sku: "A", gs1 });
const lit = (captured: object, p = SERIAL): SeatState => {
  const { scanRequired: _drop, ...target } = p;
  return { step: "pick_confirm", pick: target, captured };
};

function ok(step: SeatStep): Extract<SeatStep, { ok: true }> {
  if (!step.ok) throw new Error(`refused: ${step.reason} ${step.message}`);
  return step;
}
const reason = (step: SeatStep) => (step.ok ? `ok ${step.resolved.did}` : step.reason);
const pickInput = (c: OpCall) => (c.op === "pick" ? c.input : null);

describe("capture at the seat: lighting", () => {
  it("an item scan lights the bin with nothing captured, and drops scan-each for it", () => {
    const step = ok(stepSeat(READY_STATE, scan("BC-A", [item()], at())));
    expect(step.state).toEqual(lit({}));
    expect(step.resolved.did).toBe("bin_lit");
  });

  it("a slot scan lights it too", () => {
    expect(ok(stepSeat(READY_STATE, scan("S1", [slot()], at()))).state).toEqual(lit({}));
  });

  it("a GS1 barcode of the item fills what it carries, checked", () => {
    const step = ok(stepSeat(READY_STATE, scan("gs1", [gs1Item({ serial: "S-1", expiry: "270500" })], at())));
    expect(step.state).toEqual(lit({ serial: "S-1", expiry: "2027-05-31" }));
    expect(step.resolved.did).toBe("bin_lit");
  });

  it("a GS1 barcode with an expired date, a bad serial or a serial picked before lights nothing", () => {
    expect(reason(stepSeat(READY_STATE, scan("g", [gs1Item({ expiry: "261120" })], at())))).toBe("expired");
    expect(reason(stepSeat(READY_STATE, scan("g", [gs1Item({ serial: "S 1" })], at())))).toBe("bad_serial");
    const taken = at({ serialsTaken: ["S-1"] });
    expect(reason(stepSeat(READY_STATE, scan("g", [gs1Item({ serial: "S-1" })], taken)))).toBe(
      "serial_taken",
    );
  });
});

describe("capture at the seat: values", () => {
  it("any other scan is the value asked for, in order; unknown to the data is fine", () => {
    const first = ok(stepSeat(lit({}), scan("SN-7", [], at())));
    expect([first.state, first.resolved]).toEqual([
      lit({ serial: "SN-7" }),
      { as: "capture", did: "captured" },
    ]);
    expect(ok(stepSeat(first.state, scan("270101", [], at()))).state).toEqual(
      lit({ serial: "SN-7", expiry: "2027-01-01" }),
    );
  });

  it("a GS1 element string fills several at once, and only what the item needs", () => {
    expect(ok(stepSeat(lit({}), scan("(21)SN-7(10)L1(17)270101", [], at()))).state).toEqual(
      lit({ serial: "SN-7", expiry: "2027-01-01" }),
    );
  });

  it("refuses a bad value, an unreadable GS1 scan, the item's plain barcode, and a scan once all is there", () => {
    expect(reason(stepSeat(lit({}), scan("A".repeat(21), [], at())))).toBe("bad_serial");
    expect(reason(stepSeat(lit({}), scan("SN-7", [], at({ serialsTaken: ["SN-7"] }))))).toBe("serial_taken");
    expect(reason(stepSeat(lit({ serial: "X" }), scan("271301", [], at())))).toBe("bad_expiry");
    expect(reason(stepSeat(lit({ serial: "X" }), scan("261120", [], at())))).toBe("expired");
    expect(reason(stepSeat(lit({}), scan("(99)X", [], at())))).toBe("bad_gs1");
    expect(reason(stepSeat(lit({}), scan("BC-A", [item()], at())))).toBe("capture_expected");
    const level: DataMeaning = { kind: "level", itemId: 1, sku: "A", levelPath: "level.0" };
    expect(reason(stepSeat(lit({}), scan("CASE-A", [level], at())))).toBe("capture_expected");
    const full = lit({ serial: "X", expiry: "2027-01-01" });
    expect(reason(stepSeat(full, scan("Y", [], at())))).toBe("finish_first");
  });

  it("badges and exceptions keep their meaning", () => {
    expect(reason(stepSeat(lit({}), scan("BADGE-bob", [], at())))).toBe("finish_first");
    expect(ok(stepSeat(lit({}), scan("EXC-CANCEL", [], at()))).state).toEqual(READY_STATE);
  });
});

describe("capture at the seat: into the bin", () => {
  it("refuses a confirm, a key-in and the beam before the values are there", () => {
    expect(reason(stepSeat(lit({ serial: "X" }), bin("2")))).toBe("capture_first");
    expect(reason(stepSeat(lit({}), keyin(1)))).toBe("capture_first");
    expect(reason(stepSeat(lit({}), bin("2", "sensor")))).toBe("capture_first");
  });

  it("a serialised item goes one unit at a time, with its values; the next unit is asked for", () => {
    const full = lit({ serial: "X", expiry: "2027-01-01" });
    expect(reason(stepSeat(full, keyin(2)))).toBe("serial_per_unit");
    const step = ok(stepSeat(full, bin("2")));
    expect(step.calls.map(pickInput)).toEqual([
      {
        externalServiceRequestId: "P1",
        line: "P1-L1",
        location: "S1",
        uid: "1",
        quantity: 1,
        seat: "front",
        capture: { serial: "X", expiry: "2027-01-01" },
      },
    ]);
    expect(step.state).toEqual(lit({}, { ...SERIAL, quantity: 1 }));
    const last = ok(
      stepSeat(lit({ serial: "Y", expiry: "2027-01-01" }, { ...SERIAL, quantity: 1 }), keyin(1)),
    );
    expect(last.state).toEqual(READY_STATE);
  });

  it("a lot holds for the units confirmed with it: the button picks the lit quantity, a key-in fewer", () => {
    const all = ok(stepSeat(lit({ lot: "L1" }, LOT), bin("2")));
    expect(all.calls.map((c) => pickInput(c)?.quantity)).toEqual([3]);
    expect(all.state).toEqual(READY_STATE);
    const some = ok(stepSeat(lit({ lot: "L1" }, LOT), keyin(2)));
    expect(some.state).toEqual(lit({}, { ...LOT, quantity: 1 }));
    expect(reason(stepSeat(lit({ lot: "L1" }, LOT), keyin(4)))).toBe("more_than_expected");
  });
});
