/**
 * Drives one audit through audit.machine.ts inside a transaction: writes the new status, then does the
 * machine's effects in their order (notify, build lines, check conflicts, move lines, correct stock).
 * Notifications are built from what is stored at that moment, so each carries the status and lines it
 * announces (docs/interface.md "Audit notification data": `audit_status` carries the new status).
 */
import type { AuditRow } from "../../db/audits.repo.js";
import {
  type AuditEffect,
  type AuditInput,
  type AuditState,
  type AuditStatus,
  type PausableStatus,
  stepAudit,
} from "../../domain/audit.machine.js";
import type { SkuParam } from "../../domain/audit.schema.js";
import { type LineCount, matchesAttributeSets } from "../../domain/audit.view.js";
import {
  type AuditLineInput,
  type AuditLineStatus,
  INITIAL_AUDIT_LINE_STATUS,
  stepAuditLine,
} from "../../domain/audit-line.machine.js";
import { AppError } from "../../domain/errors.js";
import { isRefusal } from "../../domain/machine.js";
import type { Tx } from "../unit-of-work/unit-of-work.js";
import { type AuditDeps, auditData } from "./audit-record.js";

/** Statuses whose arrival sets `complete_time` (docs/decisions.md). */
const COMPLETING: readonly string[] = ["completed", "approved"];

export interface DriveOptions {
  /** Lines move with the audit, before its notification (begin: queued lines start). */
  lines?: AuditLineInput;
  /** Seat and operator recorded with the move (begin). */
  seat?: { ppsSeatName: string; userName: string | null };
}

function stateOf(a: AuditRow): AuditState {
  return a.status === "paused"
    ? { status: "paused", pausedFrom: a.pausedFrom as PausableStatus }
    : { status: a.status as Exclude<AuditStatus, "paused"> };
}

/** Feeds a line input to every line whose machine accepts it; the others keep their status. */
function moveLines(deps: AuditDeps, a: AuditRow, input: AuditLineInput, tx: Tx): void {
  for (const line of deps.repo.lines(a.id)) {
    const step = stepAuditLine(line.status as AuditLineStatus, input);
    if (isRefusal(step)) continue;
    // a line sent for re-audit is counted again from nothing (docs/architecture.md#flows: re-audit)
    const count = input.type === "reaudit" ? null : line.countJson;
    deps.repo.setLine(line.id, step.state, count, tx.now);
  }
}

/** Spec "Audit object": location audits take all stock in the slots; SKU audits every slot holding them. */
function stockToAudit({ repo }: AuditDeps, a: AuditRow) {
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

function buildLines(deps: AuditDeps, a: AuditRow, tx: Tx): AuditRow {
  const stock = stockToAudit(deps, a);
  if (stock.length === 0) return driveAudit(deps, a, { type: "no_inventory" }, tx);
  stock.forEach((s, i) => {
    deps.repo.insertLine(
      a.id,
      {
        auditLineId: `${a.auditId}-${i + 1}`,
        itemId: s.itemId,
        location: s.location,
        status: INITIAL_AUDIT_LINE_STATUS,
        expectedQty: s.quantity,
      },
      tx.now,
    );
  });
  return driveAudit(deps, a, { type: "lines_built" }, tx);
}

/** Whether a pick or a put holds stock at one of the audit's locations. */
export function hasConflict({ repo }: AuditDeps, a: AuditRow): boolean {
  const c = repo.conflicts([...new Set(repo.lines(a.id).map((l) => l.location))]);
  return c.picks + c.puts > 0;
}

/** docs/architecture.md#flows: stock is corrected only on approval, to the good quantity counted at each location. */
function correctStock(deps: AuditDeps, a: AuditRow): void {
  for (const line of deps.repo.lines(a.id)) {
    if (line.status !== "auditline_pending_approval" || !line.countJson) continue;
    const good = (JSON.parse(line.countJson) as LineCount).good;
    const reserved = deps.repo.reservedAt(line.location, line.itemId);
    if (reserved > good) {
      deps.log.warn(
        { auditId: a.auditId, location: line.location, itemId: line.itemId, reserved, good },
        "approved count is below the quantity reserved by picks at this location",
      );
    }
    deps.repo.setStock(line.location, line.itemId, good);
  }
}

function applyEffect(deps: AuditDeps, a: AuditRow, effect: AuditEffect, tx: Tx): AuditRow {
  switch (effect.kind) {
    case "notify":
      tx.notify("audit_information", auditData(deps, a, tx.now));
      return a;
    case "build_lines":
      return buildLines(deps, a, tx);
    case "check_conflicts":
      return driveAudit(deps, a, { type: hasConflict(deps, a) ? "conflict" : "no_conflict" }, tx);
    case "lines":
      moveLines(deps, a, { type: effect.input } as AuditLineInput, tx);
      return a;
    case "correct_stock":
      correctStock(deps, a);
      return a;
  }
}

/**
 * One move of the audit machine. A refused move throws `invalid_state` (409) and, because it runs in
 * the caller's transaction, nothing of the call is kept.
 */
export function driveAudit(
  deps: AuditDeps,
  audit: AuditRow,
  input: AuditInput,
  tx: Tx,
  opts: DriveOptions = {},
): AuditRow {
  const step = stepAudit(stateOf(audit), input);
  if (isRefusal(step)) {
    throw new AppError("invalid_state", `audit ${audit.auditId}: ${step.error.reason}`, [], {
      audit_id: audit.auditId,
      audit_status: audit.status,
      action: input.type,
    });
  }
  const next = step.state;
  let a = deps.repo.update(
    audit.id,
    {
      status: next.status,
      pausedFrom: next.status === "paused" ? next.pausedFrom : null,
      ppsSeatName: opts.seat ? opts.seat.ppsSeatName : audit.ppsSeatName,
      userName: opts.seat ? opts.seat.userName : audit.userName,
      completedOn: COMPLETING.includes(next.status) ? tx.now : audit.completedOn,
    },
    tx.now,
  );
  if (opts.lines) moveLines(deps, a, opts.lines, tx);
  for (const effect of step.effects) a = applyEffect(deps, a, effect, tx);
  tx.announce("audit", { auditId: a.auditId });
  return a;
}
