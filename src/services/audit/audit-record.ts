import type { Logger } from "pino";
import type { AuditRow, AuditsRepo } from "../../db/audits.repo.js";
import type { StationRepo } from "../../db/station.repo.js";
import { AppError } from "../../domain/errors.js";
import { auditData } from "./audit.flow.js";

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
