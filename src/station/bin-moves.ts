/**
 * A unit of a confirmed pick in the wrong bin (docs/station.md#undo): what the bins' lights show for it
 * (the bin to take the unit out of red, the order's own bin green, both blinking), and which seat's move
 * a bin takes part in. Pure.
 */
import type { Desired } from "./bin-lights.js";

export interface BinMove {
  from: string;
  to: string;
}

/** What the lights show for the moves open at the seats, by bin. */
export function binMoveLights(moves: ReadonlyMap<string, BinMove> | undefined): Map<string, Desired> {
  const out = new Map<string, Desired>();
  for (const m of moves?.values() ?? []) {
    out.set(m.from, { mode: "show", color: "red", blink: true });
    out.set(m.to, { mode: "show", color: "green", blink: true });
  }
  return out;
}

/** The seat whose open move a bin takes part in, or null. */
export function moveOfBin(moves: ReadonlyMap<string, BinMove> | undefined, bin: string): string | null {
  for (const [seat, m] of moves ?? []) if (m.from === bin || m.to === bin) return seat;
  return null;
}
