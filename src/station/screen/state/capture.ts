/**
 * The capture part of the screen state (pure; docs/capture.md#at-the-seat): while the lit pick's item
 * needs a serial number, lot or expiry date, what to scan now in words (the instruction line and the
 * card say it), and the values captured so far.
 */
import { CAPTURE_KINDS } from "../../../domain/capture.js";
import { askedNow, capturing } from "../../seat.capture.js";
import type { SeatState } from "../../seat.types.js";
import type { CaptureAsk, KeyIn, Msg, ScreenInput } from "./types.js";

function skuOf(input: ScreenInput, p: { externalServiceRequestId: string; line: string }): string {
  return input.pickLines.find((r) => r.order === p.externalServiceRequestId && r.line === p.line)?.sku ?? "";
}

export function captureOf(input: ScreenInput, state: SeatState): CaptureAsk | null {
  if (!capturing(state)) return null;
  const asked = askedNow(state);
  const captured = state.captured ?? {};
  return {
    asked,
    ask: asked ? { key: `instruction.scan_${asked}`, params: { sku: skuOf(input, state.pick) } } : null,
    values: CAPTURE_KINDS.flatMap((k) => {
      const value = captured[k];
      return value === undefined ? [] : [{ label: { key: `ui.capture_${k}` }, value }];
    }),
  };
}

/** A value is still asked for: the unit may not go into the bin yet (no confirm, no key-in). */
export const awaitingCapture = (state: SeatState): boolean => capturing(state) && askedNow(state) !== null;

/** The numpad for a serialised unit: one unit per serial number, so 1 is all it takes. */
export function captureKeyin(state: SeatState, keyin: KeyIn | null): KeyIn | null {
  if (!keyin || !capturing(state) || !state.pick.capture?.includes("serial")) return keyin;
  return { ...keyin, expected: 1, max: 1 };
}

/** The instruction while capturing: what to scan, then the unit (one with a serial) into the bin. */
export function captureInstruction(input: ScreenInput, state: SeatState): Msg | null {
  if (!capturing(state)) return null;
  const p = state.pick;
  const sku = skuOf(input, p);
  const asked = askedNow(state);
  if (asked) return { key: `instruction.scan_${asked}`, params: { sku } };
  const quantity = p.capture?.includes("serial") ? 1 : p.quantity;
  return { key: "instruction.put_into_bin", params: { quantity, sku, bin: p.binId, slot: p.location } };
}
