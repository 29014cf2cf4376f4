/**
 * A problem reported on the screen with its quantity, as the seat machine's calls
 * (src/station/seat.problem.ts): the quantity goes to the exception, the rest of a lit pick is picked,
 * and a report before any scan is about the next line's slot.
 */
import { describe, expect, it } from "vitest";
import { problemStep } from "../../../../src/station/seat.problem.js";
import type { SeatState } from "../../../../src/station/seat.types.js";
import { PICKING, PUT_SLOT, pick } from "../support.js";

const READY: SeatState = { step: "ready", tote: null };
const at = (state: SeatState, kind: Parameters<typeof problemStep>[1]["kind"], quantity: number, over = {}) =>
  problemStep(state, { kind, quantity, mode: "pick", seat: "front", next: null, ...over });

describe("problems with a quantity", () => {
  it("a lit pick of 3, 1 damaged: 2 picked, 1 physically damaged; the seat is ready again", () => {
    const step = at(PICKING, "damaged", 1);
    expect(step).toMatchObject({ ok: true, state: READY });
    if (!step.ok) return;
    expect(step.calls).toEqual([
      {
        op: "pick",
        input: {
          externalServiceRequestId: "P1",
          line: "P1-L1",
          location: "S1",
          uid: "1",
          quantity: 2,
          seat: "front",
        },
      },
      {
        op: "pickException",
        input: {
          externalServiceRequestId: "P1",
          line: "P1-L1",
          location: "S1",
          uid: "1",
          quantity: 1,
          reason: "physically_damaged",
          seat: "front",
        },
      },
    ]);
  });

  it("all 3 missing: no pick, the slot is empty (`missing`); short is `item_missing`", () => {
    const missing = at(PICKING, "missing", 3);
    expect(missing.ok && missing.calls.map((c) => c.op)).toEqual(["pickException"]);
    expect(missing.ok && missing.calls[0]).toMatchObject({ input: { reason: "missing", quantity: 3 } });
    const short = at(PICKING, "short", 2);
    expect(short.ok && short.calls).toMatchObject([
      { op: "pick", input: { quantity: 1 } },
      { op: "pickException", input: { reason: "item_missing", quantity: 2 } },
    ]);
  });

  it("a scan-required pick picks only the units scanned", () => {
    const scanned: SeatState = { step: "pick_confirm", pick: pick({ scanRequired: true }), scanned: 1 };
    const step = at(scanned, "damaged", 1);
    expect(step.ok && step.calls).toMatchObject([
      { op: "pick", input: { quantity: 1 } },
      { op: "pickException", input: { quantity: 1 } },
    ]);
    expect(at(scanned, "damaged", 3)).toMatchObject({ ok: false, reason: "more_than_expected" });
  });

  it("before a scan: about the next line's slot, nothing picked, the seat stays ready", () => {
    const next = pick({ location: "M1-A1", quantity: 4 });
    const step = at(READY, "wrong_slot", 4, { next });
    expect(step).toMatchObject({ ok: true, state: READY });
    expect(step.ok && step.calls).toEqual([
      {
        op: "pickException",
        input: {
          externalServiceRequestId: "P1",
          line: "P1-L1",
          location: "M1-A1",
          uid: "1",
          quantity: 4,
          reason: "missing",
          seat: "front",
        },
      },
    ]);
    expect(at(READY, "missing", 1)).toMatchObject({ ok: false, reason: "exception_not_applicable" });
    expect(at(READY, "damaged", 1, { next })).toMatchObject({
      ok: false,
      reason: "exception_not_applicable",
    });
  });

  it("put: the side's state with the quantity; the tote stays selected", () => {
    const step = problemStep(PUT_SLOT, {
      kind: "extra",
      quantity: 7,
      mode: "put",
      seat: "front",
      next: null,
    });
    expect(step).toMatchObject({ ok: true, state: { step: "ready", tote: PUT_SLOT.tote } });
    expect(step.ok && step.calls).toMatchObject([
      { op: "putException", input: { reason: "front_excess_entities", quantity: 7, uid: "1" } },
    ]);
    const back = problemStep(PUT_SLOT, {
      kind: "missing",
      quantity: 1,
      mode: "put",
      seat: "back",
      next: null,
    });
    expect(back).toMatchObject({ ok: false, reason: "exception_not_applicable" });
  });

  it("0 or more than the most is refused", () => {
    expect(at(PICKING, "missing", 0)).toMatchObject({ ok: false });
    expect(at(PICKING, "missing", 4)).toMatchObject({ ok: false, reason: "more_than_expected" });
  });
});
