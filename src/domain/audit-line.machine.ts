/**
 * Audit line lifecycle. The spec lists the line statuses and says "Audit line transitions: not shown"
 * (docs/interface.md "States and transitions" → "Audit"); lines are created `auditline_queued` when the audit's lines
 * are built. This lifecycle mirrors the audit's own table, one line (one product at one location) at a
 * time:
 *
 *   auditline_queued ──begin──► auditline_started ──counted, matches──► auditline_completed
 *                                      │
 *                                      └──counted, discrepancy──► auditline_pending_approval
 *   auditline_pending_approval ──approve──► auditline_approved
 *                              ──reject───► auditline_rejected ──reaudit──► auditline_sent_for_reaudit
 *   auditline_sent_for_reaudit ──begin──► auditline_started (counted again)
 *   any line not yet final ──cancel──► auditline_cancelled
 *
 * Decisions:
 * - Final: completed, approved, cancelled. A rejected line is not final: it waits for a re-audit.
 * - Lines do not pause: a paused audit holds its lines where they are (audit.machine.ts).
 * - Lines emit nothing themselves: they travel in the audit's audit_information `audit_data`.
 */
import { findRow, type Moved, type Refusal, refuse, type TransitionRow } from "./machine.js";

export const AUDIT_LINE_STATUSES = [
  "auditline_queued",
  "auditline_started",
  "auditline_completed",
  "auditline_pending_approval",
  "auditline_rejected",
  "auditline_approved",
  "auditline_sent_for_reaudit",
  "auditline_cancelled",
] as const;
export type AuditLineStatus = (typeof AUDIT_LINE_STATUSES)[number];

export type AuditLineInput =
  | { type: "begin" }
  /** the operator finished counting the line; `discrepancy` when the count differs from expected_qty */
  | { type: "counted"; discrepancy: boolean }
  | { type: "approve" }
  | { type: "reject" }
  | { type: "reaudit" }
  | { type: "cancel" };
export type AuditLineInputType = AuditLineInput["type"];

export const AUDIT_LINE_INPUTS: readonly AuditLineInputType[] = [
  "begin",
  "counted",
  "approve",
  "reject",
  "reaudit",
  "cancel",
];

export type AuditLineRow = TransitionRow<AuditLineStatus, AuditLineInputType>;

const CANCELLABLE: readonly AuditLineStatus[] = [
  "auditline_queued",
  "auditline_started",
  "auditline_pending_approval",
  "auditline_rejected",
  "auditline_sent_for_reaudit",
];

export const AUDIT_LINE_TABLE: readonly AuditLineRow[] = [
  { from: "auditline_queued", input: "begin", to: "auditline_started" },
  { from: "auditline_sent_for_reaudit", input: "begin", to: "auditline_started" },
  { from: "auditline_started", input: "counted", when: "matches", to: "auditline_completed" },
  { from: "auditline_started", input: "counted", when: "discrepancy", to: "auditline_pending_approval" },
  { from: "auditline_pending_approval", input: "approve", to: "auditline_approved" },
  { from: "auditline_pending_approval", input: "reject", to: "auditline_rejected" },
  { from: "auditline_rejected", input: "reaudit", to: "auditline_sent_for_reaudit" },
  ...CANCELLABLE.map((from): AuditLineRow => ({ from, input: "cancel", to: "auditline_cancelled" })),
];

export type AuditLineStep = Moved<AuditLineStatus, never> | Refusal<AuditLineStatus, AuditLineInputType>;

/** Lines are built `auditline_queued` (spec audit table: "notification with lines (status auditline_queued)"). */
export const INITIAL_AUDIT_LINE_STATUS: AuditLineStatus = "auditline_queued";

export function stepAuditLine(status: AuditLineStatus, input: AuditLineInput): AuditLineStep {
  const when = input.type === "counted" ? (input.discrepancy ? "discrepancy" : "matches") : undefined;
  const row = findRow(AUDIT_LINE_TABLE, status, input.type, when);
  if (!row) return refuse(AUDIT_LINE_TABLE, status, input.type, when);
  return { state: row.to, effects: [] };
}
