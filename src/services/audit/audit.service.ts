/**
 * The audit aggregate's door (docs/interface.md "Endpoints" → "Audits", "States and transitions" → "Audit"; docs/architecture.md,
 * audit flow and station API): create and delete, the dashboard's actions, begin and count at the
 * station, and the audit_information notifications they emit. Each use case is a function of its
 * dependencies, its input and the caller's transaction; `createAuditsService` binds them, each call one
 * transaction: the audit, its lines, the stock it corrects and its notifications commit together.
 * Callers import this module only.
 */
import { randomUUID } from "node:crypto";
import { createAudit as initialAudit } from "../../domain/audit.machine.js";
import type { AuditCountInput, AuditCreateInput } from "../../domain/audit.schema.js";
import { AppError } from "../../domain/errors.js";
import type { Tx, UnitOfWork } from "../unit-of-work/unit-of-work.js";
import { driveAudit, hasConflict } from "./audit.flow.js";
import { beginAudit, countAuditLine } from "./audit-counting.js";
import { type AuditDeps, auditData, auditView, mustGetAudit } from "./audit-record.js";

export { type AuditConflictWatcher, createAuditConflictWatcher } from "./audit-conflicts.js";
export type { AuditDeps } from "./audit-record.js";
export { beginAudit, countAuditLine };

/** Dashboard actions that are one move of the machine with no data (docs/architecture.md#station-api). */
export const AUDIT_ACTIONS = ["start", "approve", "reject", "reaudit", "cancel", "pause", "resume"] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function createAudit(deps: AuditDeps, input: AuditCreateInput, tx: Tx) {
  const a = deps.repo.insert(
    {
      auditId: randomUUID(),
      name: input.audit_param_name,
      paramType: input.audit_param_type,
      paramValueJson: JSON.stringify(input.audit_param_value),
      kq: input.kq,
      creatorName: input.audit_creator_name ?? null,
      // docs/decisions.md#audits: before an operator begins the audit, user_name is its creator
      userName: input.audit_creator_name ?? null,
    },
    tx.now,
  );
  for (const e of initialAudit().effects)
    if (e.kind === "notify") tx.notify(e.type, auditData(deps, a, tx.now));
  tx.announce("audit", { auditId: a.auditId });
  return { action: "create" as const, audit_id: a.auditId };
}

/**
 * Spec: allowed only before the audit is started; 404 unknown, 409 afterwards. An audit already
 * deleted answers 404 like an unknown id (docs/decisions.md): the spec names only 404 for this call, and
 * a client repeating a delete whose answer it lost learns that the audit is gone, not that it is busy.
 */
export function deleteAudit(deps: AuditDeps, auditId: string, tx: Tx) {
  const a = mustGetAudit(deps, auditId);
  if (a.status === "deleted") {
    throw new AppError("not_found", `audit ${auditId} is already deleted`, [
      { path: "audit_id", message: "deleted" },
    ]);
  }
  driveAudit(deps, a, { type: "delete" }, tx);
  return { action: "delete" as const, audit_id: auditId };
}

export function actOnAudit(
  deps: AuditDeps,
  auditId: string,
  action: AuditAction,
  tx: Tx,
): Record<string, unknown> {
  let a = driveAudit(deps, mustGetAudit(deps, auditId), { type: action }, tx);
  // resumed into waiting_on_conflict: the conflict may have gone while the audit was paused
  if (action === "resume" && a.status === "waiting_on_conflict" && !hasConflict(deps, a)) {
    a = driveAudit(deps, a, { type: "conflict_resolved" }, tx);
  }
  return auditView(deps, a, tx.now);
}

/** A waiting audit whose locations no pick or put holds any more moves to queued; true when it moved. */
export function settleConflict(deps: AuditDeps, auditId: string, tx: Tx): boolean {
  const a = deps.repo.get(auditId);
  if (a?.status !== "waiting_on_conflict" || hasConflict(deps, a)) return false;
  driveAudit(deps, a, { type: "conflict_resolved" }, tx);
  return true;
}

export function createAuditsService(deps: AuditDeps, uow: UnitOfWork) {
  return {
    create: (input: AuditCreateInput) => uow.run((tx) => createAudit(deps, input, tx)),
    delete: (auditId: string) => uow.run((tx) => deleteAudit(deps, auditId, tx)),
    get: (auditId: string, now: number) => auditView(deps, mustGetAudit(deps, auditId), now),
    act: (auditId: string, action: AuditAction) => uow.run((tx) => actOnAudit(deps, auditId, action, tx)),
    begin: (auditId: string, seat: string | undefined) =>
      uow.run((tx) => beginAudit(deps, auditId, seat, tx)),
    count: (auditId: string, input: AuditCountInput, via: "keyin" | "scanned" = "keyin") =>
      uow.run((tx) => countAuditLine(deps, auditId, input, via, tx)),
    /** Re-checks audits waiting on a conflict, one transaction each; returns how many moved to queued. */
    resolveConflicts(): number {
      let moved = 0;
      for (const waiting of deps.repo.withStatus("waiting_on_conflict")) {
        if (uow.run((tx) => settleConflict(deps, waiting.auditId, tx))) moved++;
      }
      return moved;
    },
  };
}

export type AuditsService = ReturnType<typeof createAuditsService>;
