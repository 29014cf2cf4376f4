/**
 * Undo at a seat (docs/station.md#undo): the last scan or key-in before a confirm is taken back by one
 * tap or the `EXC-UNDO` barcode, restoring the seat's step (and so its lights, derived from it). Only an
 * input that committed nothing can be taken back: pending work is held in memory until its confirm
 * (docs/decisions.md#supervisor-at-the-seat-undo). After a confirm (a pick, a put, an exception, a slot closed) undo is refused
 * with what to do instead: a unit in the wrong place is a supervisor's correction. Pure.
 */
import type { SeatState, SeatStep } from "./seat.types.js";

/** What the seat's last input left to undo: the state before it and the one it made. */
export type UndoMemory =
  | { kind: "undoable"; before: SeatState; after: SeatState }
  /** the last input committed a transaction (a confirm, an exception, an audit count) */
  | { kind: "committed" }
  | null;

/** What a seat remembers after a step that succeeded (`undoable`: a scan or key-in of the operator). */
export function rememberStep(before: SeatState, step: SeatStep, undoable: boolean): UndoMemory {
  if (!step.ok) return null;
  if (step.calls.length > 0) return { kind: "committed" };
  if (!undoable || step.state === before) return null;
  return { kind: "undoable", before, after: step.state };
}

export type UndoVerdict =
  | { ok: true; state: SeatState }
  | { ok: false; reason: "nothing_to_undo" | "undo_after_confirm"; message: string };

/** The state undo restores, or why it cannot (the seat moved on since, or the input committed). */
export function undoOf(memory: UndoMemory, current: SeatState): UndoVerdict {
  if (memory?.kind === "committed")
    return {
      ok: false,
      reason: "undo_after_confirm",
      message: "it is confirmed already: a unit in the wrong place is corrected by a supervisor",
    };
  if (memory?.kind !== "undoable" || memory.after !== current)
    return { ok: false, reason: "nothing_to_undo", message: "there is no scan to take back" };
  return { ok: true, state: memory.before };
}
