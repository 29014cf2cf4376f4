/**
 * Pure builders of what an audit looks like from outside: the `audit_information` notification data
 * (docs/interface.md "Audit object" → "Audit notification data" and "Audit line"), the quantities of a counted line,
 * and the SKU audit's attribute filter. No IO, no clock: time comes in as an argument.
 */

import type { AuditStatus } from "./audit.machine.js";
import type { AuditLineStatus } from "./audit-line.machine.js";
import { canonicalValue } from "./item.identity.js";
import { formatTimestamp } from "./timestamp.js";

export interface LineCount {
  good: number;
  damaged: number;
  unscannable: number;
}

export interface AuditRecord {
  auditId: string;
  name: string;
  paramType: "location" | "sku";
  status: AuditStatus;
  ppsSeatName: string | null;
  userName: string | null;
  createdOn: number;
  completedOn: number | null;
}

export interface AuditLineRecord {
  auditLineId: string;
  itemId: number;
  location: string;
  status: AuditLineStatus;
  expectedQty: number;
  count: LineCount | null;
  /** The audited product's unique attributes and their values. */
  pdfaValues: Record<string, unknown>;
}

export interface QuantityDetails {
  good_qty: number;
  missing_qty: number;
  damaged_qty: number;
  unscannable_qty: number;
  system_removed_qty: number;
}

/**
 * Spec "Audit line" → quantity_details. Damaged and unscannable items were found (then removed to the
 * IRT bin), so only what was not found at all is missing. The agent applies no COG or algorithm limit on
 * what may go back, so `system_removed_qty` is 0.
 */
export function quantityDetails(expected: number, count: LineCount): QuantityDetails {
  return {
    good_qty: count.good,
    missing_qty: Math.max(0, expected - count.good - count.damaged - count.unscannable),
    damaged_qty: count.damaged,
    unscannable_qty: count.unscannable,
    system_removed_qty: 0,
  };
}

/**
 * A line matches when the good count equals the expected quantity and nothing had to be removed: any
 * other count changes the stock, which needs a manager's approval (docs/architecture.md#audit).
 */
export function countMatches(expected: number, count: LineCount): boolean {
  return count.good === expected && count.damaged === 0 && count.unscannable === 0;
}

/** Before a line is counted nothing was found, removed or calculated missing yet: every member is 0. */
export const UNCOUNTED: Readonly<QuantityDetails> = {
  good_qty: 0,
  missing_qty: 0,
  damaged_qty: 0,
  unscannable_qty: 0,
  system_removed_qty: 0,
};

/**
 * One line as the notification carries it. Until the line is counted, `actual_qty` and `extra_qty` are
 * 0 (the spec types them as integers) and `quantity_details` is the object with every member 0: the spec
 * types it as an object, and a consumer reading `good_qty` must not meet null (docs/decisions.md).
 */
export function auditLineView(line: AuditLineRecord): Record<string, unknown> {
  const details = line.count ? quantityDetails(line.expectedQty, line.count) : null;
  return {
    audit_line_id: line.auditLineId,
    item_id: String(line.itemId),
    status: line.status,
    pdfa_values: line.pdfaValues,
    location: line.location,
    expected_qty: line.expectedQty,
    // spec: actual_qty is what stays in the location; extra_qty what was removed from it
    actual_qty: details ? details.good_qty : 0,
    extra_qty: details ? details.damaged_qty + details.unscannable_qty + details.system_removed_qty : 0,
    quantity_details: details ?? { ...UNCOUNTED },
  };
}

/** `pps_id` is an integer in the spec; a station id that is not a number is sent as null. */
export function ppsIdNumber(ppsId: string): number | null {
  return /^\d{1,15}$/.test(ppsId) ? Number(ppsId) : null;
}

/**
 * Spec "Audit notification data", members in the spec's order. `audit_data` is [] for created and
 * deleted (no lines exist yet) and absent in aborted; `timestamp` is absent in deleted.
 */
export function auditNotificationData(
  audit: AuditRecord,
  lines: readonly AuditLineRecord[],
  ctx: { ppsId: number | null; now: number },
): Record<string, unknown> {
  const data: Record<string, unknown> = {
    audit_id: audit.auditId,
    audit_param_name: audit.name,
    audit_param_type: audit.paramType,
    audit_status: audit.status,
  };
  if (audit.status !== "aborted") data.audit_data = lines.map(auditLineView);
  data.pps_id = ctx.ppsId;
  data.pps_seat_name = audit.ppsSeatName;
  data.user_name = audit.userName;
  data.creation_time = formatTimestamp(audit.createdOn);
  data.complete_time = audit.completedOn === null ? null : formatTimestamp(audit.completedOn);
  if (audit.status !== "deleted") data.timestamp = formatTimestamp(ctx.now);
  return data;
}

/**
 * SKU audit filter (docs/interface.md "Audit object"): a product is audited when it matches any one of the sets; a
 * set matches when each attribute it names has one of the listed values. No sets: every product of the
 * SKU. Values compare as text, as search does (`"12"` matches 12).
 */
export function matchesAttributeSets(
  attrs: Record<string, unknown>,
  sets: ReadonlyArray<Record<string, readonly string[]>>,
): boolean {
  if (sets.length === 0) return true;
  return sets.some((set) =>
    Object.entries(set).every(([name, values]) => {
      const v = attrs[name];
      return v !== undefined && v !== null && values.includes(canonicalValue(v));
    }),
  );
}
