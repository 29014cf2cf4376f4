/**
 * The station engine's undo memory (docs/station.md#undo): what each seat's last input left to take
 * back (seat.undo.ts says what may be), and taking it back when the work it was about is still valid.
 */
import { type LitState, refreshLights, signalSeat } from "./engine.lights.js";
import type { Outcome } from "./engine.types.js";
import type { SeatState, SeatStep } from "./seat.types.js";
import { rememberStep, type UndoMemory, undoOf } from "./seat.undo.js";

/** The part of the engine's state undo reads and keeps. */
export interface UndoCore extends LitState {
  /** what each seat's last input left to undo (seat.undo.ts) */
  undo: Map<string, UndoMemory>;
}

/** Remembers what a committed step left to undo (`undoable`: an operator's scan or key-in). */
export function rememberUndo(
  core: UndoCore,
  seat: string,
  before: SeatState,
  step: SeatStep,
  undoable: boolean,
) {
  core.undo.set(seat, rememberStep(before, step, undoable));
}

/** Whether the seat's last input can be taken back now. */
export const canUndoAt = (core: UndoCore, seat: string, current: SeatState): boolean =>
  undoOf(core.undo.get(seat) ?? null, current).ok;

/** Takes the seat's last scan or key-in back when it committed nothing and `stillValid` says so. */
export function undoAt(
  core: UndoCore,
  seat: string,
  current: SeatState,
  stillValid: (s: SeatState) => boolean,
): Outcome {
  const v = undoOf(core.undo.get(seat) ?? null, current);
  const back = v.ok && stillValid(v.state) ? v.state : null;
  const answer = { seat, as: "exception", step: (back ?? current).step, calls: [] };
  if (back === null) signalSeat(core, current);
  else [core.states.set(seat, back), core.undo.set(seat, null), refreshLights(core)];
  if (back !== null) return { ...answer, result: "done", did: "undone" };
  const why = v.ok ? { reason: "nothing_to_undo", message: "the work it was about changed meanwhile" } : v;
  return { ...answer, result: "refused", reason: why.reason, message: why.message };
}
