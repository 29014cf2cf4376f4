/**
 * What a seat that runs a whole shift adds to the screen state (docs/station.md#supervisor-at-the-seat,
 * #undo, #an-audit-begun-at-the-seat): the taps that need a supervisor, whether the last scan can be taken
 * back, an audit queued for the seat to begin, what to do about a confirmed unit put wrong, and the
 * question a slot closed before any count asks first. Pure.
 */
import { supervisedTaps } from "../screen-roles.js";
import type { SupervisorScanAnswer } from "./supervisor-types.js";
import type { LastEvent, Msg, ScreenInput, Task } from "./types.js";

/** Work a confirm committed: undo cannot take it back, a supervisor corrects it. */
const CONFIRMED = new Set(["picked", "put"]);

export interface ShiftState {
  supervised: string[];
  undo: boolean;
  auditQueued: string | null;
  afterConfirm: Msg | null;
  /** closing the slot now would count every line 0: the page asks this first; null: it does not ask */
  closeSlotAsks: Msg | null;
  supervisorScan: { n: number; answer: SupervisorScanAnswer } | null;
}

function afterConfirmOf(e: LastEvent | null): Msg | null {
  if (e?.result !== "done" || !CONFIRMED.has(e.did ?? "")) return null;
  return { key: "ui.after_confirm" };
}

function closeSlotAsksOf(task: Task | null): Msg | null {
  if (task?.kind !== "audit" || task.slot === null) return null;
  const counted = task.lines.some((l) => l.counted + l.damaged + l.unscannable > 0);
  return counted ? null : { key: "ui.close_slot_at_zero", params: { slot: task.slot } };
}

export function shiftOf(input: ScreenInput, task: Task | null): ShiftState {
  const on = input.operator !== null;
  return {
    supervised: supervisedTaps(),
    undo: on && input.undoable === true,
    auditQueued: on && input.mode === "audit" && input.audit === null ? (input.queuedAudit ?? null) : null,
    afterConfirm: on ? afterConfirmOf(input.lastEvent) : null,
    closeSlotAsks: on ? closeSlotAsksOf(task) : null,
    supervisorScan: input.supervisorScan ?? null,
  };
}
