/**
 * Audit lifecycle (docs/interface.md "States and transitions" → "Audit", "Events" → audit_information and rule 7;
 * docs/architecture.md#audit).
 *
 * Decisions where the spec is silent or says "any state":
 * - Final statuses refuse everything: completed, approved, cancelled, deleted, aborted.
 * - "any state → cancel": every status that is not final, paused included.
 * - "any state → pause": every status that is not final, except paused itself and processing_start,
 *   which is the agent's own short step of building lines (nothing waits there to be paused).
 * - A paused audit remembers the status it was paused from (`pausedFrom`) and `resume` returns to it.
 *   Delete is allowed only from created proper, not from a paused audit that was created.
 * - Pause and resume emit audit_information. The events table says the notification is sent when "audit
 *   status changes", and `paused` is one of the spec's audit statuses, so consumers already accept the
 *   value; keeping silent (rule 7: "not shown") would leave the central dashboard showing a running
 *   audit. Resume reports the restored status.
 * - created → start → processing_start emits nothing: processing_start is absent from the list of
 *   statuses audit_information is emitted for.
 * - sent_for_reaudit → begin → started: the re-count happens at the station like the first one.
 */
import type { AuditLineInputType } from "./audit-line.machine.js";
import { findRow, type Moved, type Refusal, refuse, type TransitionRow } from "./machine.js";

export const AUDIT_STATUSES = [
  "created",
  "processing_start",
  "auditlines_created",
  "waiting_on_conflict",
  "queued",
  "started",
  "pending_approval",
  "completed",
  "approved",
  "rejected",
  "sent_for_reaudit",
  "cancelled",
  "aborted",
  "deleted",
  "paused",
] as const;
export type AuditStatus = (typeof AUDIT_STATUSES)[number];

export const AUDIT_FINAL_STATUSES = ["completed", "approved", "cancelled", "deleted", "aborted"] as const;
type FinalStatus = (typeof AUDIT_FINAL_STATUSES)[number];

export type PausableStatus = Exclude<AuditStatus, FinalStatus | "paused" | "processing_start">;
export const AUDIT_PAUSABLE_STATUSES: readonly PausableStatus[] = [
  "created",
  "auditlines_created",
  "waiting_on_conflict",
  "queued",
  "started",
  "pending_approval",
  "rejected",
  "sent_for_reaudit",
];

export type AuditState =
  | { status: Exclude<AuditStatus, "paused"> }
  | { status: "paused"; pausedFrom: PausableStatus };

export type AuditInput =
  | { type: "start" }
  | { type: "delete" }
  | { type: "lines_built" }
  | { type: "no_inventory" }
  | { type: "conflict" }
  | { type: "no_conflict" }
  | { type: "conflict_resolved" }
  | { type: "begin" }
  | { type: "discrepancy_found" }
  | { type: "no_discrepancy" }
  | { type: "approve" }
  | { type: "reject" }
  | { type: "reaudit" }
  | { type: "cancel" }
  | { type: "pause" }
  | { type: "resume" };
export type AuditInputType = AuditInput["type"];

export const AUDIT_INPUTS: readonly AuditInputType[] = [
  "start",
  "delete",
  "lines_built",
  "no_inventory",
  "conflict",
  "no_conflict",
  "conflict_resolved",
  "begin",
  "discrepancy_found",
  "no_discrepancy",
  "approve",
  "reject",
  "reaudit",
  "cancel",
  "pause",
  "resume",
];

export type AuditEffect =
  | { kind: "notify"; type: "audit_information"; status: AuditStatus }
  /** build lines from stock at the listed locations or SKUs; feed lines_built or no_inventory */
  | { kind: "build_lines" }
  /** look for picks or puts holding the audited locations; feed conflict or no_conflict */
  | { kind: "check_conflicts" }
  /** feed this input to every line whose machine accepts it (others keep their status) */
  | { kind: "lines"; input: AuditLineInputType }
  /** set stock to the approved counts and fill quantity_details (docs/architecture.md#audit) */
  | { kind: "correct_stock" };

export interface AuditRow extends TransitionRow<AuditStatus, AuditInputType> {
  /** emits audit_information carrying the new status */
  notify: boolean;
}

const CANCELLABLE: readonly AuditStatus[] = AUDIT_STATUSES.filter(
  (s) => !(AUDIT_FINAL_STATUSES as readonly AuditStatus[]).includes(s),
);

export const AUDIT_TABLE: readonly AuditRow[] = [
  { from: "created", input: "start", to: "processing_start", notify: false },
  { from: "created", input: "delete", to: "deleted", notify: true },
  { from: "processing_start", input: "lines_built", to: "auditlines_created", notify: true },
  { from: "processing_start", input: "no_inventory", to: "aborted", notify: true },
  { from: "auditlines_created", input: "conflict", to: "waiting_on_conflict", notify: true },
  { from: "auditlines_created", input: "no_conflict", to: "queued", notify: true },
  { from: "waiting_on_conflict", input: "conflict_resolved", to: "queued", notify: true },
  { from: "queued", input: "begin", to: "started", notify: true },
  { from: "sent_for_reaudit", input: "begin", to: "started", notify: true },
  { from: "started", input: "discrepancy_found", to: "pending_approval", notify: true },
  { from: "started", input: "no_discrepancy", to: "completed", notify: true },
  { from: "pending_approval", input: "approve", to: "approved", notify: true },
  { from: "pending_approval", input: "reject", to: "rejected", notify: true },
  { from: "rejected", input: "reaudit", to: "sent_for_reaudit", notify: true },
  ...CANCELLABLE.map((from): AuditRow => ({ from, input: "cancel", to: "cancelled", notify: true })),
  ...AUDIT_PAUSABLE_STATUSES.map((from): AuditRow => ({ from, input: "pause", to: "paused", notify: true })),
  // `when` is the status the audit was paused from
  ...AUDIT_PAUSABLE_STATUSES.map(
    (to): AuditRow => ({ from: "paused", input: "resume", when: to, to, notify: true }),
  ),
];

export type AuditStep = Moved<AuditState, AuditEffect> | Refusal<AuditStatus, AuditInputType>;

/** Row "(none) → create by API or dashboard → created": audit created notification. */
export function createAudit(): Moved<AuditState, AuditEffect> {
  return { state: { status: "created" }, effects: [notify("created")] };
}

export function stepAudit(state: AuditState, input: AuditInput): AuditStep {
  const when = input.type === "resume" && state.status === "paused" ? state.pausedFrom : undefined;
  const row = findRow(AUDIT_TABLE, state.status, input.type, when);
  if (!row) return refuse(AUDIT_TABLE, state.status, input.type, when);
  const next = nextState(state, row.to);
  if (!next) return refuse(AUDIT_TABLE, state.status, input.type, when);
  const notices = row.notify ? [notify(row.to)] : [];
  return { state: next, effects: effectsOf(input, notices) };
}

function nextState(from: AuditState, to: AuditStatus): AuditState | undefined {
  if (to !== "paused") return { status: to };
  const pausable = AUDIT_PAUSABLE_STATUSES.find((s) => s === from.status);
  return pausable ? { status: "paused", pausedFrom: pausable } : undefined;
}

function notify(status: AuditStatus): AuditEffect {
  return { kind: "notify", type: "audit_information", status };
}

function effectsOf(input: AuditInput, notices: AuditEffect[]): AuditEffect[] {
  switch (input.type) {
    case "start":
      return [...notices, { kind: "build_lines" }];
    case "lines_built":
      return [...notices, { kind: "check_conflicts" }];
    case "approve":
      return [{ kind: "correct_stock" }, { kind: "lines", input: "approve" }, ...notices];
    case "reject":
    case "reaudit":
    case "cancel":
      return [{ kind: "lines", input: input.type }, ...notices];
    default:
      return notices;
  }
}
