/**
 * Audit use cases (spec "Endpoints" → "Audits", "States and transitions" → "Audit"; DESIGN §4 Audit and
 * §5 station API). Each call is one transaction: the audit, its lines, the stock it corrects and its
 * audit_information notifications commit together.
 */
import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { AuditRow, AuditsRepo } from "../db/audits.repo.js";
import type { StationRepo } from "../db/station.repo.js";
import { createAudit } from "../domain/audit.machine.js";
import type { AuditCountInput, AuditCreateInput } from "../domain/audit.schema.js";
import { countMatches, ppsIdNumber } from "../domain/audit.view.js";
import { type AuditLineStatus, stepAuditLine } from "../domain/audit-line.machine.js";
import { AppError } from "../domain/errors.js";
import { isRefusal } from "../domain/machine.js";
import { createAuditFlow } from "./audit.flow.js";
import type { Tx, UnitOfWork } from "./unit-of-work.js";

export interface AuditsDeps {
  repo: AuditsRepo;
  station: StationRepo;
  tx: UnitOfWork;
  log: Logger;
  ppsId: string;
  /** Configured seats, in configuration order (the default seat for begin is the first logged in). */
  seats: readonly string[];
}

/** Dashboard actions that are one move of the machine with no data (DESIGN §5 station API). */
export const AUDIT_ACTIONS = ["start", "approve", "reject", "reaudit", "cancel", "pause", "resume"] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function createAuditsService(deps: AuditsDeps) {
  const { repo, tx } = deps;
  const flow = createAuditFlow({ repo, ppsId: ppsIdNumber(deps.ppsId), log: deps.log });

  function mustGet(auditId: string): AuditRow {
    const a = repo.get(auditId);
    if (!a)
      throw new AppError("not_found", `no audit ${auditId}`, [{ path: "audit_id", message: "unknown" }]);
    return a;
  }

  function view(a: AuditRow, now: number): Record<string, unknown> {
    const { timestamp: _, ...data } = flow.data(a, now);
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

  /** Resumed into waiting_on_conflict: the conflict may have gone while the audit was paused. */
  function settleConflict(t: Tx, a: AuditRow): AuditRow {
    if (a.status !== "waiting_on_conflict" || flow.hasConflict(a)) return a;
    return flow.drive(t, a, { type: "conflict_resolved" });
  }

  function seatFor(requested: string | undefined): { ppsSeatName: string; userName: string | null } {
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

  return {
    create(input: AuditCreateInput): { action: "create"; audit_id: string } {
      return tx.run((t) => {
        const a = repo.insert(
          {
            auditId: randomUUID(),
            name: input.audit_param_name,
            paramType: input.audit_param_type,
            paramValueJson: JSON.stringify(input.audit_param_value),
            kq: input.kq,
            creatorName: input.audit_creator_name ?? null,
            // README: before an operator begins the audit, user_name is its creator
            userName: input.audit_creator_name ?? null,
          },
          t.now,
        );
        for (const e of createAudit().effects) if (e.kind === "notify") t.notify(e.type, flow.data(a, t.now));
        t.announce("audit", { auditId: a.auditId });
        return { action: "create", audit_id: a.auditId };
      });
    },

    /** Spec: allowed only before the audit is started; 404 unknown, 409 afterwards. */
    delete(auditId: string): { action: "delete"; audit_id: string } {
      return tx.run((t) => {
        flow.drive(t, mustGet(auditId), { type: "delete" });
        return { action: "delete", audit_id: auditId };
      });
    },

    get(auditId: string, now: number): Record<string, unknown> {
      return view(mustGet(auditId), now);
    },

    act(auditId: string, action: AuditAction): Record<string, unknown> {
      return tx.run((t) => {
        let a = flow.drive(t, mustGet(auditId), { type: action });
        if (action === "resume") a = settleConflict(t, a);
        return view(a, t.now);
      });
    },

    /** queued (or sent_for_reaudit) → started, at a seat with an operator, in audit mode (DESIGN §4). */
    begin(auditId: string, seat: string | undefined): Record<string, unknown> {
      return tx.run((t) => {
        const a = mustGet(auditId);
        if (a.status !== "queued" && a.status !== "sent_for_reaudit") {
          flow.drive(t, a, { type: "begin" }); // throws invalid_state with the machine's reason
        }
        const mode = deps.station.mode();
        if (mode !== "audit") {
          throw new AppError(
            "wrong_mode",
            `the station is in ${mode} mode, not audit`,
            [{ path: "mode", message: "counting needs audit mode" }],
            {
              condition: "pps_mode_incorrect",
              mode,
            },
          );
        }
        const other = repo.withStatus("started")[0];
        if (other) {
          throw new AppError("invalid_state", `audit ${other.auditId} is being counted at this station`, [], {
            condition: "audit_in_progress",
            audit_id: other.auditId,
          });
        }
        return view(
          flow.drive(t, a, { type: "begin" }, { lines: { type: "begin" }, seat: seatFor(seat) }),
          t.now,
        );
      });
    },

    /**
     * A count of one line: keyed in (only when the audit's `kq` is true), or `scanned` by the station
     * engine (each unit scanned, DESIGN §4 Audit). When no line is left to count, the audit moves to
     * completed (all match) or pending_approval (spec audit table).
     */
    count(
      auditId: string,
      input: AuditCountInput,
      via: "keyin" | "scanned" = "keyin",
    ): Record<string, unknown> {
      return tx.run((t) => {
        const a = mustGet(auditId);
        if (a.kq !== 1 && via === "keyin") {
          throw new AppError(
            "keyin_not_allowed",
            `audit ${auditId} was created without kq: counts are scanned`,
            [{ path: "kq", message: "key-in quantities are allowed only when the audit's kq is true" }],
          );
        }
        if (a.status !== "started") {
          throw new AppError("invalid_state", `audit ${auditId} is ${a.status}; counting needs started`, [], {
            audit_id: auditId,
            audit_status: a.status,
            action: "count",
          });
        }
        const lines = repo.lines(a.id);
        const line = lines.find((l) => l.auditLineId === input.audit_line_id);
        if (!line) {
          throw new AppError("not_found", `audit ${auditId} has no line ${input.audit_line_id}`, [
            { path: "audit_line_id", message: "not a line of this audit" },
          ]);
        }
        const count = {
          good: input.good_qty,
          damaged: input.damaged_qty,
          unscannable: input.unscannable_qty,
        };
        const discrepancy = !countMatches(line.expectedQty, count);
        const step = stepAuditLine(line.status as AuditLineStatus, { type: "counted", discrepancy });
        if (isRefusal(step)) {
          throw new AppError("invalid_state", `line ${line.auditLineId}: ${step.error.reason}`, [], {
            audit_line_id: line.auditLineId,
            status: line.status,
          });
        }
        repo.setLine(line.id, step.state, JSON.stringify(count), t.now);
        t.announce("audit", { auditId });
        const after = repo.lines(a.id);
        if (after.some((l) => l.status === "auditline_started")) return view(a, t.now);
        const found = after.some((l) => l.status === "auditline_pending_approval");
        return view(flow.drive(t, a, { type: found ? "discrepancy_found" : "no_discrepancy" }), t.now);
      });
    },

    /** Re-checks audits waiting on a conflict; each that is free now moves to queued. */
    resolveConflicts(): number {
      let moved = 0;
      for (const waiting of repo.withStatus("waiting_on_conflict")) {
        tx.run((t) => {
          const a = repo.get(waiting.auditId);
          if (a?.status !== "waiting_on_conflict" || flow.hasConflict(a)) return;
          flow.drive(t, a, { type: "conflict_resolved" });
          moved++;
        });
      }
      return moved;
    },
  };
}

export type AuditsService = ReturnType<typeof createAuditsService>;
