/**
 * The unscannable path of a lit pick (pure; docs/station.md#paths-of-a-shift, "Unscannable"): before a
 * unit is written off, the screen offers what identifies it instead (the label of its slot, or its code
 * typed), and says what a write-off does: the units it settles, which the order then ends short.
 */
import { scanEach } from "../../seat.pick.js";
import type { SeatState } from "../../seat.types.js";
import type { ScreenInput, UnscannablePath } from "./types.js";

export function unscannableOf(input: ScreenInput, state: SeatState): UnscannablePath | null {
  if (input.operator === null || state.step !== "pick_confirm") return null;
  const p = state.pick;
  const scanned = scanEach(p) ? (state.scanned ?? 0) : 0;
  return {
    slot: p.location,
    bin: p.binId,
    order: p.externalServiceRequestId,
    scanEach: scanEach(p),
    writeOff: p.quantity - scanned,
  };
}
