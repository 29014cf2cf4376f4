/**
 * Capture steps of the seat machine (pure; see seat.machine.ts, docs/capture.md#at-the-seat): a pick
 * of an item that needs its serial number, lot or expiry date lights its bin as any pick does, then
 * asks for each missing value before the unit may go into the bin. A GS1 barcode of the item fills what
 * it carries; any other scan (or a typed code) is the value asked for. Each value is checked as it
 * comes (format, expiry not passed, serial not picked before); a confirm before every value is there
 * is refused. An item with a serial goes one unit per pick transaction, the seat then asks for the
 * next unit's values.
 */
import {
  type CaptureKind,
  type CaptureValues,
  checkAll,
  nextToCapture,
  valuesOfScan,
} from "../domain/capture.js";
import { pickCall } from "./seat.pick.js";
import { moved, refused } from "./seat.result.js";
import type { DataMeaning, PickTarget, Resolved, SeatFacts, SeatState, SeatStep } from "./seat.types.js";

type Picking = Extract<SeatState, { step: "pick_confirm" }>;

const NAMES: Record<CaptureKind, string> = { serial: "serial number", lot: "lot", expiry: "expiry date" };

/** Whether the seat's lit pick is of an item that needs values captured. */
export const capturing = (state: SeatState): state is Picking =>
  state.step === "pick_confirm" && (state.pick.capture?.length ?? 0) > 0;

/** The value the seat asks for now, or null when the unit's values are all there. */
export const askedNow = (state: Picking): CaptureKind | null =>
  nextToCapture(state.pick.capture ?? [], state.captured ?? {});

/** Checks the values given against what the item needs and takes the good ones; the first bad one refuses. */
function take(state: Picking, given: Partial<Record<CaptureKind, string>>, w: SeatFacts, as: Resolved["as"]) {
  // without today (an input that carries no scan) nothing is before it
  const checked = checkAll(state.pick.capture ?? [], given, w.today ?? "");
  if (!checked.ok) return refused(checked.reason, checked.message, as);
  const serial = checked.values.serial;
  if (serial !== undefined && w.serialsTaken?.includes(serial))
    return refused("serial_taken", `serial number ${serial} was picked before`, as);
  const captured: CaptureValues = { ...state.captured, ...checked.values };
  return moved({ ...state, captured }, [], as, "captured");
}

const carries = (m: DataMeaning | undefined): Partial<Record<CaptureKind, string>> | null =>
  m?.kind === "item" && m.gs1 && Object.keys(m.gs1).length ? m.gs1 : null;

/** Lights a capture item's pick, with the values its GS1 barcode carried (checked), else none yet. */
export function lightCapture(
  pick: PickTarget,
  scanned: DataMeaning | undefined,
  w: SeatFacts,
  as: "item" | "slot",
): SeatStep {
  // the capture step is the unit's scan: scan_required adds nothing (docs/decisions.md#capture-of-serial-numbers-lots-and-expiry-dates)
  const { scanRequired: _each, ...target } = pick;
  const state: Picking = { step: "pick_confirm", pick: target, captured: {} };
  const gs1 = carries(scanned);
  if (!gs1) return moved(state, [], as, "bin_lit");
  const step = take(state, gs1, w, as);
  return step.ok ? { ...step, resolved: { ...step.resolved, did: "bin_lit" } } : step;
}

/** A scan (or a typed code) while the lit pick waits for its values. */
export function captureScan(
  state: Picking,
  barcode: string,
  meanings: DataMeaning[],
  w: SeatFacts,
): SeatStep {
  const asked = askedNow(state);
  // a barcode of the item's own packing levels is no serial, lot or date either
  const own = meanings.find(
    (m) => (m.kind === "item" || m.kind === "level") && m.itemId === state.pick.itemId,
  );
  const item = own?.kind === "item" ? own : undefined;
  if (item) {
    // the item again: a GS1 barcode's values are a unit's (they replace those so far)
    const gs1 = carries(item);
    if (gs1) return take({ ...state, captured: {} }, gs1, w, "item");
  }
  if (own && (own.kind === "item" || own.kind === "level") && asked)
    return refused("capture_expected", `scan the ${NAMES[asked]} of ${own.sku}`, own.kind);
  if (asked === null)
    return refused("finish_first", "confirm or cancel the lit bin first", meanings[0]?.kind);
  const read = valuesOfScan(barcode, asked);
  if (!read.ok) return refused("bad_gs1", read.message, "capture");
  return take(state, read.values, w, "capture");
}

/** The button, the beam, EXC-CONFIRM or a key-in: the unit(s) into the bin with the values captured. */
export function captureConfirm(
  state: Picking,
  as: Resolved["as"],
  seat: string,
  quantity?: number,
): SeatStep {
  const asked = askedNow(state);
  if (asked) return refused("capture_first", `scan the ${NAMES[asked]} first`, as);
  const p = state.pick;
  if (quantity !== undefined && quantity > p.quantity)
    return refused("more_than_expected", `at most ${p.quantity} to pick here`, as);
  const serial = p.capture?.includes("serial") === true;
  if (serial && quantity !== undefined && quantity > 1)
    return refused("serial_per_unit", "one unit per serial number: key in 1, or press the bin's button", as);
  const n = quantity ?? (serial ? 1 : p.quantity);
  const call = pickCall(p, n, seat, state.captured ?? {});
  const left = p.quantity - n;
  const next: SeatState =
    left > 0
      ? { step: "pick_confirm", pick: { ...p, quantity: left }, captured: {} }
      : { step: "ready", tote: null };
  return moved(next, [call], as, "picked");
}
