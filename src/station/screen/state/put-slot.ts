/**
 * The put card before the slot is scanned (pure; docs/station.md#paths-of-a-shift): the item from the
 * tote (image, SKU, description) and a suggested slot: where the same item already is on the presented
 * racks, else an empty slot. Only a suggestion: the operator scans it or any other presented slot.
 */
import type { ScreenSlotRow } from "../../../domain/screen-rows.js";
import type { SeatState } from "../../seat.types.js";
import { faceOf } from "./face.js";
import type { BinTile, Card, ScreenInput } from "./types.js";

/** Where the item already is on the presented racks, else the first empty slot, else null. */
export function suggestedSlot(slots: readonly ScreenSlotRow[], itemId: number): string | null {
  const same = slots.find((s) => s.itemId === itemId);
  if (same) return same.slot;
  const held = new Set(slots.filter((s) => s.itemId !== null).map((s) => s.slot));
  return slots.find((s) => !held.has(s.slot))?.slot ?? null;
}

export function suggestedPutCard(
  input: ScreenInput,
  state: Extract<SeatState, { step: "put_slot" }>,
  bins: readonly BinTile[],
): Card {
  const slots = input.slots ?? [];
  const slot = suggestedSlot(slots, state.put.itemId) ?? "";
  const items = input.puts.filter((r) => r.putId === state.put.externalServiceRequestId);
  const i = items.findIndex((r) => r.itemId === state.put.itemId);
  const light = bins.find((b) => b.id === state.put.binId)?.light;
  return {
    phase: "put",
    row: items[i] ?? null,
    slot,
    face: slot ? faceOf(slot, [...new Set(slots.map((s) => s.slot))]) : null,
    quantity: state.quantity,
    line: i < 0 ? 1 : i + 1,
    lines: Math.max(1, items.length),
    bin: state.put.binId,
    binColor: light?.mode === "show" ? light.color : null,
    suggested: true,
  };
}
