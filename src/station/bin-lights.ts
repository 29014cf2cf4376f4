/**
 * What each light should show, as a pure function of the bins' state and the seats' pending work, so
 * the lights can never drift from the station's truth: the shell recomputes after every change (a
 * scan, a press, a bus event) and sends only the differences. Colours (hardware.md §2: green, yellow
 * and red exist on every controller there):
 * - pending work at a seat: green with the quantity (pick: into this bin; put: out of this tote);
 * - a complete bin: green blinking, "take it away", its button empties it; yellow blinking while a
 *   pick+pack bin waits for its label (print-ready);
 * - a tote whose put is complete: green blinking, its button releases it;
 * - everything else: off (locked and in-progress bins stay dark until a scan is about them, so a lit
 *   bin always means "act here").
 */
import type { LightColor } from "../devices/hub.types.js";
import type { OpCall, SeatState } from "./seat.types.js";

export interface BinView {
  id: string;
  state: "empty" | "pick" | "put" | "complete";
  printState: "none" | "waiting" | "done";
  /** the put of a complete tote in this bin, to release */
  completePut: string | null;
}

export type Desired =
  | { mode: "off" }
  | { mode: "show"; color: LightColor; quantity?: number; blink?: boolean };

export const OFF: Desired = { mode: "off" };

/** Quantities the seats' pending work shows, by bin and by slot. */
export function heldBySeats(seats: Iterable<SeatState>): {
  bins: Map<string, number>;
  slots: Map<string, number>;
} {
  const bins = new Map<string, number>();
  const slots = new Map<string, number>();
  for (const s of seats) {
    // a scan-required pick shows the units still to scan
    if (s.step === "pick_confirm") bins.set(s.pick.binId, s.pick.quantity - (s.scanned ?? 0));
    if ((s.step === "put_slot" || s.step === "put_confirm") && s.put.binId) bins.set(s.put.binId, s.quantity);
    if (s.step === "put_confirm") slots.set(s.location, s.quantity);
  }
  return { bins, slots };
}

export function binLight(bin: BinView, held: number | undefined): Desired {
  if (held !== undefined) return { mode: "show", color: "green", quantity: held };
  if (bin.state === "complete") {
    return bin.printState === "waiting"
      ? { mode: "show", color: "yellow", blink: true }
      : { mode: "show", color: "green", blink: true };
  }
  if (bin.completePut) return { mode: "show", color: "green", blink: true };
  return OFF;
}

export function slotLight(held: number | undefined): Desired {
  return held === undefined ? OFF : { mode: "show", color: "green", quantity: held };
}

/** Two desired states that look the same on the module (nothing to send). */
export function sameLight(a: Desired | undefined, b: Desired): boolean {
  if (!a || a.mode !== b.mode) return false;
  if (a.mode === "off" || b.mode === "off") return true;
  return a.color === b.color && a.quantity === b.quantity && Boolean(a.blink) === Boolean(b.blink);
}

/**
 * A bin's button pressed while no seat has work lit there: a complete bin was emptied, a complete
 * tote is released (docs/architecture.md#flows: "Tote released (button or scan)"); anything else means nothing.
 */
export function binPress(bin: BinView): OpCall | null {
  if (bin.state === "complete") return { op: "binEmptied", binId: bin.id };
  if (bin.completePut) return { op: "release", externalServiceRequestId: bin.completePut };
  return null;
}

/**
 * A paused seat's work (docs/station.md#pausing-a-seat): every bin and slot its pending work lit shows
 * steady yellow (amber) without a quantity, so nobody takes or puts by it; the quantity comes back on
 * resume, as the pending work was kept. Steady, where a bin waiting for its label blinks yellow.
 */
export const PAUSED_LIGHT: Desired = { mode: "show", color: "yellow" };

/** The bins and slots held by the pending work of paused seats. */
export function pausedWork(
  seats: ReadonlyMap<string, SeatState>,
  paused: ReadonlySet<string>,
): { bins: Set<string>; slots: Set<string> } {
  const mine = [...seats].filter(([seat]) => paused.has(seat)).map(([, s]) => s);
  const held = heldBySeats(mine);
  return { bins: new Set(held.bins.keys()), slots: new Set(held.slots.keys()) };
}
