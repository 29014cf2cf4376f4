import type { LineRow, RequestRow } from "../../db/requests.repo.js";
import { allocate, type LineDemand } from "../../domain/allocation.js";
import { AppError } from "../../domain/errors.js";
import { type Filter, parseFilter } from "../../domain/filter.js";
import { isRefusal } from "../../domain/machine.js";
import { type PickState, stepPick } from "../../domain/pick.machine.js";
import { stepPickLine } from "../../domain/pick-line.machine.js";
import { limitExceeded } from "../../domain/work-limits.js";
import { parseJson } from "../request-record/request-record.js";
import type { Tx } from "../unit-of-work/unit-of-work.js";
import { inWorkOrder } from "../work-order/work-order.service.js";
import { expirePick, pastDeadline } from "./pick-deadline.js";
import { lineState, type PickDeps } from "./pick-deps.js";
import { applyPickEffects, binFor, giveBin, lockAtPresentedRacks, withContext } from "./pick-effects.js";

/**
 * Items matching all of each line's filters, resolved set-based over the unique-attribute index
 * (items.repo.ts `matchAll`). The index rows read are counted over the request: past
 * `pick.maxCandidates` it is a 413 naming the line, and nothing is reserved (docs/decisions.md
 * "Work limits").
 */
function candidatesOf(deps: PickDeps, lines: readonly LineRow[], filters: Filter[][]): string[][] {
  const budget = deps.pick.maxCandidates;
  let used = 0;
  // lines of one order often repeat their filters (a client's key on every line): each set is read once
  const resolved = new Map<string, string[]>();
  return lines.map((l, i) => {
    const wanted = (filters[i] ?? []).map((f) => ({
      key: f.key,
      values: f.operator === "=" ? [f.value] : f.values,
    }));
    const key = JSON.stringify(wanted);
    const known = resolved.get(key);
    if (known) return [...known];
    const match = deps.items.matchAll(wanted, budget - used);
    used += match.rowsRead;
    if (!match.ok) {
      throw limitExceeded(
        `serviceRequests.${i}.expectations.containers.0.products.0.productAttributes.filter_parameters`,
        "pick.maxCandidates",
        budget,
        used,
        `resolving the filters up to line '${l.externalId}' reads more index rows than one request may`,
      );
    }
    const ids = match.ids.map(String);
    resolved.set(key, ids);
    return [...ids];
  });
}

/** A new request's lines as just inserted, with the filters `checkLines` parsed: nothing is read back. */
export interface NewLines {
  lines: LineRow[];
  filters: Filter[][];
}

const parsedFilters = (l: LineRow): Filter[] =>
  (JSON.parse(l.filtersJson) as string[]).map((t) => (parseFilter(t) as { ok: true; filter: Filter }).filter);

/**
 * A request allocated again with its bin (a modify) keeps the bin while it waits for picking in it:
 * fulfillable and released (not held back by pick_after_time). Otherwise the bin is freed before the
 * order_information is written, so that `pps_bin_id` names the bin the request holds now (spec
 * "Events": the full current Service Request object), null when none.
 */
function keepOrFreeBin(deps: PickDeps, row: RequestRow, allocated: boolean, tx: Tx): RequestRow {
  if (!row.binId) return row;
  if (allocated && inWorkOrder([{ ...row, state: "fulfillable" }], tx.now).length) return row;
  deps.station.setBin(row.binId, "empty", "none", tx.now);
  tx.announce("station", {});
  tx.announce("binReleased", { binId: row.binId, requests: [row.externalId] });
  const exec = parseJson<Record<string, unknown>>(row.executionJson);
  return {
    ...row,
    binId: null,
    updatedOn: tx.now,
    executionJson: exec ? JSON.stringify({ ...exec, pps_bin_id: null }) : row.executionJson,
  };
}

/**
 * Allocation against free stock, all-or-nothing (docs/architecture.md#flows): fulfillable or not_fulfillable. Slots
 * audits hold are left out. A request whose pick_before_time has passed is not allocated: it ends
 * not_fulfillable (pick-deadline.ts). A request that becomes fulfillable takes its bin first when one
 * is free for it, so the notification names it; one that no longer waits in its bin frees it first
 * (keepOrFreeBin). `fresh`: a request created in this transaction.
 */
export function allocatePick(deps: PickDeps, row: RequestRow, tx: Tx, fresh?: NewLines): RequestRow {
  const lines = fresh?.lines ?? deps.requests.lines(row.id);
  if (pastDeadline(row, tx.now)) return expirePick(deps, withContext(deps, row), tx, lines);
  const found = candidatesOf(deps, lines, fresh?.filters ?? lines.map(parsedFilters));
  const demands: LineDemand[] = lines.map((l, i) => ({
    lineId: String(l.id),
    candidates: found[i] ?? [],
    quantity: l.expected,
  }));
  const itemIds = [...new Set(demands.flatMap((d) => d.candidates))].map(Number);
  const locked = deps.lockedLocations();
  const free = deps.stock
    .freeStockOf(itemIds)
    .filter((s) => !locked.has(s.location))
    .map((s) => ({ location: s.location, itemId: String(s.itemId), free: s.quantity - s.reserved }));
  const result = allocate(demands, free);
  const input = result.ok
    ? ({ type: "allocated", reservations: result.reservations } as const)
    : ({ type: "allocation_failed", lineId: result.error.lineId } as const);
  const step = stepPick(row.state as PickState, input);
  if (isRefusal(step)) throw new AppError("invalid_state", step.error.reason);
  const written = lines.map((l) => {
    const ls = stepPickLine(lineState(l), { type: result.ok ? "allocated" : "allocation_failed" });
    if (isRefusal(ls)) return l;
    const next = { ...l, state: ls.state.state, updatedOn: tx.now };
    deps.requests.updateLine(next);
    return next;
  });
  const known = fresh ? { lines: written, actuals: [] } : undefined;
  const held = keepOrFreeBin(deps, row, result.ok, tx);
  const bin = result.ok ? binFor(deps, held, tx.now) : undefined;
  const placed = withContext(deps, bin ? giveBin(deps, held, bin, tx) : held);
  const next = applyPickEffects(deps, placed, step, tx, {}, null, known);
  if (bin) lockAtPresentedRacks(deps, tx);
  return next;
}
