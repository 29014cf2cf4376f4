/**
 * A unit of a confirmed pick in the wrong bin (docs/station.md#undo): the bin to take it out of blinks
 * red and the order's own bin blinks green, over what they showed, until the seat's next input or a
 * press of either bin's button (the unit moved). The engine's lights (engine.lights.ts) show them.
 */
import { type BinMove, moveOfBin } from "./bin-moves.js";
import { type LitState, refreshLights } from "./engine.lights.js";

/** Lights a seat's move: the bin to take the unit out of and the order's own bin. */
export function showBinMove(core: LitState, seat: string, from: string, to: string): void {
  const moves = core.binMoves ?? new Map<string, BinMove>();
  moves.set(seat, { from, to });
  core.binMoves = moves;
  refreshLights(core);
}

/** The button of a bin a unit is moved between (no seat's work lit it): the unit is moved, the move ends. */
export function pressMovedBin(core: LitState, bin: string) {
  const seat = moveOfBin(core.binMoves, bin);
  if (seat === null) return null;
  core.binMoves?.delete(seat);
  refreshLights(core);
  return { seat, result: "done" as const, as: "bin", did: "bin_move_done", calls: [] as string[] };
}
