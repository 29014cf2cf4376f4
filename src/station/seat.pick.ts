/**
 * Pick steps of the seat machine (pure; see seat.machine.ts): the scanned item or slot lights its
 * order's bin, then the bin's button, its beam, EXC-CONFIRM or a key-in quantity confirms.
 *
 * Scan-required items (product attribute `scan_required`, docs/station.md#operator-screen): every
 * unit is scanned. The first scan lights the bin, each further scan of the item counts one more, and
 * the scan that reaches the quantity confirms the pick. A confirm before that, and any key-in, is
 * refused with `scan_each_unit`; an exception picks what was scanned and raises the rest.
 */
import type { CaptureValues } from "../domain/capture.js";
import { type ExceptionCode, pickReason } from "./scan-codes.js";
import { moved, refused } from "./seat.result.js";
import type { DataMeaning, OpCall, PickTarget, Resolved, SeatState, SeatStep } from "./seat.types.js";

type Picking = Extract<SeatState, { step: "pick_confirm" }>;

/** Whether every unit of this work must be scanned. */
export const scanEach = (target: { scanRequired?: boolean | undefined }): boolean =>
  target.scanRequired === true;

export const eachUnit = (as?: Resolved["as"]): SeatStep =>
  refused("scan_each_unit", "every unit of this item must be scanned, one by one", as);

/** The pick transaction of `quantity` units of the seat's lit pick, with the values captured for them. */
export function pickCall(p: PickTarget, quantity: number, seat: string, capture: CaptureValues = {}): OpCall {
  const { externalServiceRequestId, line, location } = p;
  // the item by its uid: a line's filters may hold two items at one slot (docs/decisions.md#item-identity)
  const uid = String(p.itemId);
  const input = { externalServiceRequestId, line, location, uid, quantity, seat };
  return { op: "pick", input: Object.keys(capture).length ? { ...input, capture } : input };
}

export function pickDone(state: Picking, quantity: number, as: Resolved["as"], seat: string): SeatStep {
  return moved({ step: "ready", tote: null }, [pickCall(state.pick, quantity, seat)], as, "picked");
}

export function lightPick(pick: PickTarget, as: "item" | "slot", seat: string): SeatStep {
  const scanned = scanEach(pick) && as === "item" ? 1 : 0;
  const state: Picking = scanEach(pick)
    ? { step: "pick_confirm", pick, scanned }
    : { step: "pick_confirm", pick };
  // a scan-required pick of one unit: that scan was the last one
  if (scanEach(pick) && scanned >= pick.quantity) return pickDone(state, pick.quantity, as, seat);
  return moved(state, [], as, "bin_lit");
}

/**
 * A data scan while a bin is lit: another unit of a scan-required pick, else finish first. The label of
 * the pick's own slot identifies the item there, so it counts a unit whose own barcode cannot be read
 * (docs/station.md#paths-of-a-shift, "Unscannable").
 */
export function pickScan(state: Picking, meanings: DataMeaning[], seat: string): SeatStep {
  const unit = meanings.find(
    (m) =>
      (m.kind === "item" && m.itemId === state.pick.itemId) ||
      (m.kind === "slot" && m.location === state.pick.location),
  );
  if (!scanEach(state.pick) || !unit)
    return refused("finish_first", "confirm or cancel the lit bin first", meanings[0]?.kind);
  const scanned = (state.scanned ?? 0) + 1;
  const as = unit.kind === "slot" ? "slot" : "item";
  if (scanned >= state.pick.quantity) return pickDone(state, state.pick.quantity, as, seat);
  return moved({ ...state, scanned }, [], as, "unit_scanned");
}

/** The button, EXC-CONFIRM or a key-in quantity (the beam is handled by the caller). */
export function pickConfirm(state: Picking, as: Resolved["as"], seat: string, quantity?: number): SeatStep {
  if (scanEach(state.pick)) return eachUnit(as);
  if (quantity !== undefined && quantity > state.pick.quantity)
    return refused("more_than_expected", `at most ${state.pick.quantity} to pick here`, as);
  return pickDone(state, quantity ?? state.pick.quantity, as, seat);
}

export function pickException(state: Picking, code: ExceptionCode, seat: string): SeatStep {
  const reason = pickReason(code);
  if (!reason) return refused("exception_not_applicable", `${code} is not a pick exception`, "exception");
  const p = state.pick;
  const scanned = scanEach(p) ? (state.scanned ?? 0) : 0;
  const calls: OpCall[] = scanned > 0 ? [pickCall(p, scanned, seat)] : [];
  const { externalServiceRequestId, line } = p;
  const uid = String(p.itemId);
  const input = { externalServiceRequestId, line, uid, quantity: p.quantity - scanned, reason, seat };
  calls.push({ op: "pickException", input });
  return moved({ step: "ready", tote: null }, calls, "exception", "pick_exception", code);
}
