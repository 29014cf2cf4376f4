import type { AuditCountInput } from "../../domain/audit.schema.js";
import { countMatches } from "../../domain/audit.view.js";
import { type AuditLineStatus, stepAuditLine } from "../../domain/audit-line.machine.js";
import { AppError } from "../../domain/errors.js";
import { isRefusal } from "../../domain/machine.js";
import type { Tx } from "../unit-of-work/unit-of-work.js";
import { driveAudit } from "./audit.flow.js";
import { type AuditDeps, auditView, mustGetAudit } from "./audit-record.js";

/** Counting an audit at the station (docs/architecture.md#audit): begin at a seat, then a count per line. */

function seatFor(
  deps: AuditDeps,
  requested: string | undefined,
): { ppsSeatName: string; userName: string | null } {
  if (requested !== undefined && !deps.seats.includes(requested)) {
    throw new AppError("validation_failed", `seat: ${requested} is not a seat of this station`, [
      { path: "seat", message: `one of ${deps.seats.join(", ")}` },
    ]);
  }
  const candidates = requested ? [requested] : deps.seats;
  for (const name of candidates) {
    const s = deps.station.seat(name);
    if (s?.userName) return { ppsSeatName: s.seat, userName: s.userName };
  }
  throw new AppError(
    "not_logged_in",
    requested ? `no operator is logged in at seat ${requested}` : "no operator is logged in at any seat",
    [{ path: "seat", message: "log an operator in at the seat first" }],
    { condition: "pps_not_logged_in" },
  );
}

/** queued (or sent_for_reaudit) → started, at a seat with an operator, in audit mode (docs/architecture.md#flows). */
export function beginAudit(
  deps: AuditDeps,
  auditId: string,
  seat: string | undefined,
  tx: Tx,
): Record<string, unknown> {
  const a = mustGetAudit(deps, auditId);
  if (a.status !== "queued" && a.status !== "sent_for_reaudit") {
    driveAudit(deps, a, { type: "begin" }, tx); // throws invalid_state with the machine's reason
  }
  const mode = deps.station.mode();
  if (mode !== "audit") {
    throw new AppError(
      "wrong_mode",
      `the station is in ${mode} mode, not audit`,
      [{ path: "mode", message: "counting needs audit mode" }],
      { condition: "pps_mode_incorrect", mode },
    );
  }
  const other = deps.repo.withStatus("started")[0];
  if (other) {
    throw new AppError("invalid_state", `audit ${other.auditId} is being counted at this station`, [], {
      condition: "audit_in_progress",
      audit_id: other.auditId,
    });
  }
  const started = driveAudit(deps, a, { type: "begin" }, tx, {
    lines: { type: "begin" },
    seat: seatFor(deps, seat),
  });
  return auditView(deps, started, tx.now);
}

/**
 * A count of one line: keyed in (only when the audit's `kq` is true), or `scanned` by the station
 * engine (each unit scanned, docs/architecture.md#audit). When no line is left to count, the audit moves to
 * completed (all match) or pending_approval (spec audit table).
 */
export function countAuditLine(
  deps: AuditDeps,
  auditId: string,
  input: AuditCountInput,
  via: "keyin" | "scanned",
  tx: Tx,
): Record<string, unknown> {
  const a = mustGetAudit(deps, auditId);
  if (a.kq !== 1 && via === "keyin") {
    throw new AppError("keyin_not_allowed", `audit ${auditId} was created without kq: counts are scanned`, [
      { path: "kq", message: "key-in quantities are allowed only when the audit's kq is true" },
    ]);
  }
  if (a.status !== "started") {
    throw new AppError("invalid_state", `audit ${auditId} is ${a.status}; counting needs started`, [], {
      audit_id: auditId,
      audit_status: a.status,
      action: "count",
    });
  }
  const line = deps.repo.lines(a.id).find((l) => l.auditLineId === input.audit_line_id);
  if (!line) {
    throw new AppError("not_found", `audit ${auditId} has no line ${input.audit_line_id}`, [
      { path: "audit_line_id", message: "not a line of this audit" },
    ]);
  }
  const count = { good: input.good_qty, damaged: input.damaged_qty, unscannable: input.unscannable_qty };
  const discrepancy = !countMatches(line.expectedQty, count);
  const step = stepAuditLine(line.status as AuditLineStatus, { type: "counted", discrepancy });
  if (isRefusal(step)) {
    throw new AppError("invalid_state", `line ${line.auditLineId}: ${step.error.reason}`, [], {
      audit_line_id: line.auditLineId,
      status: line.status,
    });
  }
  deps.repo.setLine(line.id, step.state, JSON.stringify(count), tx.now);
  tx.announce("audit", { auditId });
  const after = deps.repo.lines(a.id);
  if (after.some((l) => l.status === "auditline_started")) return auditView(deps, a, tx.now);
  const found = after.some((l) => l.status === "auditline_pending_approval");
  return auditView(
    deps,
    driveAudit(deps, a, { type: found ? "discrepancy_found" : "no_discrepancy" }, tx),
    tx.now,
  );
}
