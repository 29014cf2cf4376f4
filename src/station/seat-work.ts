/**
 * The pick work a seat has lit, as kept across a restart (pure; docs/station.md#after-a-restart). A
 * seat's pending work lives in the engine's memory; a restart starts every seat ready, so the work lit
 * before it is kept (db/screen.repo.ts `seat_work`) with the line's picked count when it was lit. After
 * the restart, the picked count then against now says how many of its units were recorded, and the
 * screen says so until the operator acknowledges it.
 */

import type { LitWork, LostWork } from "../domain/seat-work.js";
import { scanEach } from "./seat.pick.js";
import type { SeatState } from "./seat.types.js";

export type { LitWork, LostWork };

/** The work the seat's state lights, without the picked count (the shell reads it), or null. */
export function litWorkOf(state: SeatState): Omit<LitWork, "pickedBefore"> | null {
  if (state.step === "put_slot" || state.step === "put_confirm")
    return {
      kind: "put",
      order: state.put.externalServiceRequestId,
      line: state.put.sku,
      slot: state.step === "put_confirm" ? state.location : "",
      bin: state.put.binId ?? "",
      itemId: state.put.itemId,
      quantity: state.quantity,
      scanned: 0,
      tote: state.put.toteId,
    };
  if (state.step !== "pick_confirm") return null;
  const p = state.pick;
  return {
    order: p.externalServiceRequestId,
    line: p.line,
    slot: p.location,
    bin: p.binId,
    itemId: p.itemId,
    quantity: p.quantity,
    scanned: scanEach(p) ? (state.scanned ?? 0) : 0,
  };
}

/** Whether two lit works are the same to keep (a unit scanned more is a change). */
export const sameWork = (a: Omit<LitWork, "pickedBefore"> | null, b: Omit<LitWork, "pickedBefore"> | null) =>
  JSON.stringify(a) === JSON.stringify(b);

/** After a restart: the units of the lit work the line's picked count says were recorded. */
export function lostWork(lit: LitWork, pickedNow: number): LostWork {
  return { ...lit, recorded: Math.max(0, Math.min(lit.quantity, pickedNow - lit.pickedBefore)) };
}
