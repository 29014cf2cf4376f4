/** A seat that runs a whole shift (docs/station.md#supervisor-at-the-seat, #undo): supervised taps, undo, an audit begun. Pure data. */
import type { Msg } from "./msg.js";

/** What became of a supervisor's badge scanned at the seat for its open prompt (supervisor-scan.ts). */
export type SupervisorScanAnswer = "ok" | "refused" | "throttled" | "stale" | "other";

/** What the shell reads for them (state/types.ts merges it into `ScreenInput`). */
export interface SupervisorScreenInput {
  /** the last answer to a supervisor's badge scanned at the seat; `n` counts them */
  supervisorScan?: { n: number; answer: SupervisorScanAnswer } | null;
  /** the seat's last scan can be taken back (nothing of it committed) */
  undoable?: boolean;
  /** an audit queued for the station, not begun: the seat in audit mode can begin it */
  queuedAudit?: string | null;
}

/** What the seat shows of them (state/types.ts merges it into `ScreenState`). */
export interface SupervisorScreenState {
  /**
   * the taps the station box's display may not make by itself (screen-roles.ts): the page shows them as
   * a supervisor's and asks for a supervisor's badge or PIN, which authorises that one tap
   */
  supervised: string[];
  /** the last scan can be taken back by one tap (the `undo` action, or `EXC-UNDO`) */
  undo: boolean;
  /** an audit queued for the station that a tap (`audit_begin`) begins here; null: none */
  auditQueued: string | null;
  /** after a confirm: what to do about a unit put wrong (a supervisor's correction), or null */
  afterConfirm: Msg | null;
  /** closing the audit slot now counts every line 0: the page asks this first ("close slot X at 0?") */
  closeSlotAsks: Msg | null;
  /**
   * the last answer to a supervisor's badge scanned on the seat's scanner while its prompt was open
   * (`n` counts them: the open prompt reacts to a new one), or null
   */
  supervisorScan: { n: number; answer: SupervisorScanAnswer } | null;
}
