import type { Logger } from "pino";
import type { AuditLineRow, AuditRow, AuditsRepo } from "../../db/audits.repo.js";
import type { StationRepo } from "../../db/station.repo.js";
import type { AuditStatus } from "../../domain/audit.machine.js";
import { type AuditLineRecord, auditNotificationData, type LineCount } from "../../domain/audit.view.js";
import type { AuditLineStatus } from "../../domain/audit-line.machine.js";
import { AppError } from "../../domain/errors.js";
import { identifyingValues } from "../../domain/item.identity.js";
import type { ItemSchema } from "../../domain/item.schema.js";

/** What the audit use cases read and write. */
export interface AuditDeps {
  repo: AuditsRepo;
  station: StationRepo;
  log: Logger;
  /** The station's id as the notifications carry it: a number, or null when it is not one. */
  ppsId: number | null;
  /** Configured seats, in configuration order (the default seat for begin is the first logged in). */
  seats: readonly string[];
}

/** The audit by id, or a 404 naming it. */
export function mustGetAudit(deps: AuditDeps, auditId: string): AuditRow {
  const a = deps.repo.get(auditId);
  if (!a) throw new AppError("not_found", `no audit ${auditId}`, [{ path: "audit_id", message: "unknown" }]);
  return a;
}

/** The station's view of an audit: the notification data, plus what the dashboard needs to act. */
export function auditView(deps: AuditDeps, a: AuditRow, now: number): Record<string, unknown> {
  const { timestamp: _, ...data } = auditData(deps, a, now);
  return {
    ...data,
    // the aborted notification has no audit_data; the view always lists the lines (none then)
    audit_data: data.audit_data ?? [],
    audit_param_value: JSON.parse(a.paramValueJson),
    kq: a.kq === 1,
    audit_creator_name: a.creatorName,
    paused_from: a.pausedFrom,
  };
}

function lineRecord(l: AuditLineRow): AuditLineRecord {
  const attrs = l.attrsJson ? (JSON.parse(l.attrsJson) as Record<string, unknown>) : {};
  return {
    auditLineId: l.auditLineId,
    itemId: l.itemId,
    location: l.location,
    status: l.status as AuditLineStatus,
    expectedQty: l.expectedQty,
    count: l.countJson ? (JSON.parse(l.countJson) as LineCount) : null,
    pdfaValues: l.schemaJson ? identifyingValues(JSON.parse(l.schemaJson) as ItemSchema, attrs) : {},
  };
}

/** The audit_information data of the audit as stored now. */
export function auditData(deps: AuditDeps, a: AuditRow, now: number): Record<string, unknown> {
  const lines = deps.repo.lines(a.id).map(lineRecord);
  return auditNotificationData({ ...a, status: a.status as AuditStatus }, lines, { ppsId: deps.ppsId, now });
}
