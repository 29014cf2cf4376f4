/**
 * Drives one audit through audit.machine.ts inside a transaction: writes the new status, then does the
 * machine's effects in their order (notify, build lines, check conflicts, move lines, correct stock).
 * Notifications are built from what is stored at that moment, so each carries the status and lines it
 * announces (spec "Events": `audit_status` carries the new status).
 */
import type { Logger } from "pino";
import type { AuditLineRow, AuditRow, AuditsRepo } from "../db/audits.repo.js";
import {
  type AuditEffect,
  type AuditInput,
  type AuditState,
  type AuditStatus,
  type PausableStatus,
  stepAudit,
} from "../domain/audit.machine.js";
import type { SkuParam } from "../domain/audit.schema.js";
import {
  type AuditLineRecord,
  type AuditRecord,
  auditNotificationData,
  type LineCount,
  matchesAttributeSets,
  pdfaValues,
} from "../domain/audit.view.js";
import {
  type AuditLineInput,
  type AuditLineStatus,
  INITIAL_AUDIT_LINE_STATUS,
  stepAuditLine,
} from "../domain/audit-line.machine.js";
import { AppError } from "../domain/errors.js";
import { uniqueKeysOf } from "../domain/item.identity.js";
import type { ItemSchema } from "../domain/item.schema.js";
import { isRefusal } from "../domain/machine.js";
import type { Tx } from "./unit-of-work.js";

/** Statuses whose arrival sets `complete_time` (README: decisions). */
const COMPLETING: readonly string[] = ["completed", "approved"];

export interface DriveOptions {
  /** Lines move with the audit, before its notification (begin: queued lines start). */
  lines?: AuditLineInput;
  /** Seat and operator recorded with the move (begin). */
  seat?: { ppsSeatName: string; userName: string | null };
}

export function createAuditFlow(deps: { repo: AuditsRepo; ppsId: number | null; log: Logger }) {
  const { repo } = deps;

  function stateOf(a: AuditRow): AuditState {
    return a.status === "paused"
      ? { status: "paused", pausedFrom: a.pausedFrom as PausableStatus }
      : { status: a.status as Exclude<AuditStatus, "paused"> };
  }

  function record(a: AuditRow): AuditRecord {
    return { ...a, status: a.status as AuditStatus };
  }

  function lineRecord(l: AuditLineRow): AuditLineRecord {
    const attrs = l.attrsJson ? (JSON.parse(l.attrsJson) as Record<string, unknown>) : {};
    const keys = l.schemaJson ? uniqueKeysOf(JSON.parse(l.schemaJson) as ItemSchema) : [];
    return {
      auditLineId: l.auditLineId,
      itemId: l.itemId,
      location: l.location,
      status: l.status as AuditLineStatus,
      expectedQty: l.expectedQty,
      count: l.countJson ? (JSON.parse(l.countJson) as LineCount) : null,
      pdfaValues: pdfaValues(keys, attrs),
    };
  }

  function lines(a: AuditRow): AuditLineRecord[] {
    return repo.lines(a.id).map(lineRecord);
  }

  function data(a: AuditRow, now: number): Record<string, unknown> {
    return auditNotificationData(record(a), lines(a), { ppsId: deps.ppsId, now });
  }

  /** Feeds a line input to every line whose machine accepts it; the others keep their status. */
  function moveLines(t: Tx, a: AuditRow, input: AuditLineInput): void {
    for (const line of repo.lines(a.id)) {
      const step = stepAuditLine(line.status as AuditLineStatus, input);
      if (isRefusal(step)) continue;
      // a line sent for re-audit is counted again from nothing (DESIGN §4: re-audit)
      const count = input.type === "reaudit" ? null : line.countJson;
      repo.setLine(line.id, step.state, count, t.now);
    }
  }

  /** Spec "Audit object": location audits take all stock in the slots; SKU audits every slot holding them. */
  function stockToAudit(a: AuditRow) {
    const value = JSON.parse(a.paramValueJson) as {
      locations_list?: string[];
      attributes_list?: SkuParam[];
    };
    if (a.paramType === "location") return repo.stockAt(repo.resolveLocations(value.locations_list ?? []));
    const itemIds = new Set<number>();
    for (const entry of value.attributes_list ?? []) {
      for (const item of repo.itemsBySku(entry.sku)) {
        const attrs = JSON.parse(item.attrsJson) as Record<string, unknown>;
        if (matchesAttributeSets(attrs, entry.attributes_sets)) itemIds.add(item.id);
      }
    }
    return repo.stockOf([...itemIds]);
  }

  function buildLines(t: Tx, a: AuditRow): AuditRow {
    const stock = stockToAudit(a);
    if (stock.length === 0) return drive(t, a, { type: "no_inventory" });
    stock.forEach((s, i) => {
      repo.insertLine(
        a.id,
        {
          auditLineId: `${a.auditId}-${i + 1}`,
          itemId: s.itemId,
          location: s.location,
          status: INITIAL_AUDIT_LINE_STATUS,
          expectedQty: s.quantity,
        },
        t.now,
      );
    });
    return drive(t, a, { type: "lines_built" });
  }

  function locationsOf(a: AuditRow): string[] {
    return [...new Set(repo.lines(a.id).map((l) => l.location))];
  }

  function hasConflict(a: AuditRow): boolean {
    const c = repo.conflicts(locationsOf(a));
    return c.picks + c.puts > 0;
  }

  /** DESIGN §4: stock is corrected only on approval, to the good quantity counted at each location. */
  function correctStock(a: AuditRow): void {
    for (const line of repo.lines(a.id)) {
      if (line.status !== "auditline_pending_approval" || !line.countJson) continue;
      const good = (JSON.parse(line.countJson) as LineCount).good;
      const reserved = repo.reservedAt(line.location, line.itemId);
      if (reserved > good) {
        deps.log.warn(
          { auditId: a.auditId, location: line.location, itemId: line.itemId, reserved, good },
          "approved count is below the quantity reserved by picks at this location",
        );
      }
      repo.setStock(line.location, line.itemId, good);
    }
  }

  function apply(t: Tx, a: AuditRow, effect: AuditEffect): AuditRow {
    switch (effect.kind) {
      case "notify":
        t.notify("audit_information", data(a, t.now));
        return a;
      case "build_lines":
        return buildLines(t, a);
      case "check_conflicts":
        return drive(t, a, { type: hasConflict(a) ? "conflict" : "no_conflict" });
      case "lines":
        moveLines(t, a, { type: effect.input } as AuditLineInput);
        return a;
      case "correct_stock":
        correctStock(a);
        return a;
    }
  }

  /**
   * One move of the audit machine. A refused move throws `invalid_state` (409) and, because it runs in
   * the caller's transaction, nothing of the call is kept.
   */
  function drive(t: Tx, audit: AuditRow, input: AuditInput, opts: DriveOptions = {}): AuditRow {
    const step = stepAudit(stateOf(audit), input);
    if (isRefusal(step)) {
      throw new AppError("invalid_state", `audit ${audit.auditId}: ${step.error.reason}`, [], {
        audit_id: audit.auditId,
        audit_status: audit.status,
        action: input.type,
      });
    }
    const next = step.state;
    let a = repo.update(
      audit.id,
      {
        status: next.status,
        pausedFrom: next.status === "paused" ? next.pausedFrom : null,
        ppsSeatName: opts.seat ? opts.seat.ppsSeatName : audit.ppsSeatName,
        userName: opts.seat ? opts.seat.userName : audit.userName,
        completedOn: COMPLETING.includes(next.status) ? t.now : audit.completedOn,
      },
      t.now,
    );
    if (opts.lines) moveLines(t, a, opts.lines);
    for (const effect of step.effects) a = apply(t, a, effect);
    t.announce("audit", { auditId: a.auditId });
    return a;
  }

  return { drive, data, lines, hasConflict };
}

export type AuditFlow = ReturnType<typeof createAuditFlow>;
