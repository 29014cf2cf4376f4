/**
 * What a seat that runs a whole shift adds to the screen state (src/station/screen/state/shift.ts):
 * the supervisor's taps, undo, a queued audit to begin, the word after a confirm, and the question a
 * slot closed at 0 asks first (docs/station.md#supervisor-at-the-seat).
 */
import { describe, expect, it } from "vitest";
import { deriveScreen } from "../../../../src/station/screen/state/state.js";
import type { LastEvent } from "../../../../src/station/screen/state/types.js";
import type { SeatState } from "../../../../src/station/seat.types.js";
import { COUNTING } from "../support.js";
import { screenInput } from "./support.js";

const AUDIT = {
  auditId: "AU1",
  kq: true,
  lines: [{ auditLineId: "AU1-1", location: "S1", sku: "A", description: null, open: true }],
};
const counting = (counts: Record<string, number>): SeatState =>
  COUNTING.step === "audit_count" ? { ...COUNTING, counts, last: null } : COUNTING;
const event = (did: string): LastEvent => ({
  seq: 1,
  at: "2026-11-21T10:00:00.000Z",
  input: "button",
  text: "1",
  result: "done",
  did,
  tone: "good",
  message: { key: `did.${did}` },
});

describe("a seat that runs a whole shift", () => {
  it("names the mode switch and the skipped label as a supervisor's, the confirm not", () => {
    const s = deriveScreen(screenInput());
    expect(s.supervised).toEqual(expect.arrayContaining(["mode", "skip_label"]));
    expect(s.supervised).not.toContain("confirm");
  });

  it("offers undo only while the engine can take the scan back, and only to a logged-in seat", () => {
    expect(deriveScreen(screenInput({ undoable: true })).undo).toBe(true);
    expect(deriveScreen(screenInput({ undoable: false })).undo).toBe(false);
    expect(deriveScreen(screenInput({ undoable: true, operator: null })).undo).toBe(false);
  });

  it("a queued audit is begun at the seat in audit mode, instead of 'no audit'", () => {
    const s = deriveScreen(screenInput({ mode: "audit", audit: null, queuedAudit: "AU7" }));
    expect(s.auditQueued).toBe("AU7");
    expect(s.instruction).toEqual({ key: "instruction.begin_audit", params: { audit: "AU7" } });
    const none = deriveScreen(screenInput({ mode: "audit", audit: null, queuedAudit: null }));
    expect([none.auditQueued, none.instruction.key]).toEqual([null, "instruction.no_audit"]);
    // an audit being counted is counted, not begun again
    expect(
      deriveScreen(screenInput({ mode: "audit", audit: AUDIT, queuedAudit: "AU7" })).auditQueued,
    ).toBeNull();
  });

  it("closing a slot before any count asks first; after a count it does not", () => {
    const empty = deriveScreen(screenInput({ mode: "audit", audit: AUDIT }, counting({})));
    expect(empty.closeSlotAsks).toEqual({ key: "ui.close_slot_at_zero", params: { slot: "S1" } });
    const counted = deriveScreen(screenInput({ mode: "audit", audit: AUDIT }, counting({ "AU1-1": 1 })));
    expect(counted.closeSlotAsks).toBeNull();
  });

  it("after a confirmed pick or put, says a unit put wrong is a supervisor's correction", () => {
    expect(deriveScreen(screenInput({ lastEvent: event("picked") })).afterConfirm).toEqual({
      key: "ui.after_confirm",
    });
    expect(deriveScreen(screenInput({ lastEvent: event("bin_lit") })).afterConfirm).toBeNull();
  });
});
