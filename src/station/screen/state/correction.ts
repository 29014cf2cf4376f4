/**
 * What a supervisor may correct at the seat right after a confirm (docs/station.md#undo): offered while
 * the last event is that confirm (or a correction refused) and the seat's operator is logged in. Pure.
 */
import { CORRECTION_REFUSALS } from "../../../domain/seat-correction.js";
import type { CorrectionOffer } from "./correction-types.js";
import type { Msg, ScreenInput } from "./types.js";

const REFUSED = new Set(CORRECTION_REFUSALS.map((r) => `refusal.${r}`));

/** The last event is a correction refused: the supervisor may choose again. */
const refusedCorrection = (input: ScreenInput): boolean =>
  input.lastEvent?.result === "refused" && REFUSED.has(input.lastEvent.message.key);

export function correctionOf(input: ScreenInput, afterConfirm: Msg | null): CorrectionOffer | null {
  const last = input.lastConfirmed ?? null;
  if (input.operator === null || last === null) return null;
  if (afterConfirm === null && !refusedCorrection(input)) return null;
  if (last.kind === "put") {
    const slots = (input.rackSlots ?? []).filter((s) => s !== last.slot);
    return { kind: "put", slot: last.slot, quantity: last.quantity, slots };
  }
  const bins = input.bins.map((b) => b.id).filter((b) => b !== last.bin);
  return { kind: "pick", bin: last.bin, order: last.request, bins };
}
