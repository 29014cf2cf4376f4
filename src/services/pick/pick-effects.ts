import type { RequestRow } from "../../db/requests.repo.js";
import { isRefusal } from "../../domain/machine.js";
import { PICK_STATUS, type PickEffect, type PickState, stepPick } from "../../domain/pick.machine.js";
import {
  announceRequest,
  parseJson,
  pdfaValues,
  ppsIdValue,
  type RequestContext,
  viewOf,
  type Written,
} from "../request-record/request-record.js";
import type { Tx } from "../unit-of-work/unit-of-work.js";
import { inWorkOrder } from "../work-order/work-order.service.js";
import type { PickDeps } from "./pick-deps.js";

/** Context of an actual container: who did it where (spec: order_information attributes). */
export interface ActualContext {
  user_name?: string;
  pps_seat_name?: string;
}

const FINAL: readonly string[] = ["complete", "abandoned", "cancelled", "not_fulfillable"];
const DONE: readonly string[] = ["complete", "abandoned"];

/**
 * Applies the pick machine's effects in order, inside the caller's transaction. The request row is
 * written first with the new state; each notification shows the state it announces, so a step that
 * emits pick_started then complete shows both (spec: order_information on every state).
 */
export function applyPickEffects(
  deps: PickDeps,
  row: RequestRow,
  step: { state: PickState; effects: PickEffect[] },
  tx: Tx,
  actor: ActualContext = {},
  /** The item an exception refers to (it has no consume to name it). */
  itemHint: number | null = null,
  /** The request's lines and actuals as the caller just wrote them (a new request's allocation). */
  written?: Written,
  /** Values captured at the pick (docs/capture.md#in-the-actuals), under their product attribute names. */
  captured: Record<string, string> = {},
): RequestRow {
  const next: RequestRow = { ...row, state: step.state, status: PICK_STATUS[step.state], updatedOn: tx.now };
  deps.requests.update(next);
  let consumedItem: number | null = null;
  for (const e of step.effects) {
    switch (e.kind) {
      case "notify":
        if (e.type === "order_information") {
          tx.notify(
            "order_information",
            viewOf({ ...next, state: e.state, status: PICK_STATUS[e.state] }, deps, written),
          );
        }
        // order_modification is written by the cancel/modify use case, which knows the transaction id.
        break;
      case "reserve":
        reserve(deps, e.reservations);
        break;
      case "release":
        for (const r of deps.requests.reservationsOfRequest(row.id)) {
          deps.stock.reserve(r.location, r.itemId, -r.quantity);
          deps.requests.setReservation({ ...r, quantity: 0 });
        }
        break;
      case "consume":
        consumedItem = consume(deps, row.id, e);
        break;
      case "record_actual":
        recordActual(deps, row.id, e, consumedItem ?? itemHint, { actor, captured }, tx);
        break;
      case "check_bin":
        if (next.binId) checkBin(deps, next.binId, tx);
        break;
      case "allocate":
        // run by the caller (it needs the lines' filters resolved against current stock)
        break;
    }
  }
  announceRequest(tx, deps, next);
  return next;
}

type Effect<K extends PickEffect["kind"]> = Extract<PickEffect, { kind: K }>;

function reserve(deps: PickDeps, reservations: Effect<"reserve">["reservations"]): void {
  for (const r of reservations) {
    const res = {
      lineId: Number(r.lineId),
      location: r.location,
      itemId: Number(r.itemId),
      quantity: r.quantity,
    };
    deps.requests.addReservation(res);
    deps.stock.reserve(res.location, res.itemId, res.quantity);
  }
}

/** Takes picked items off the slot, from the line's reservation first; returns the item. */
function consume(deps: PickDeps, requestId: number, e: Effect<"consume">): number {
  const lineId = Number(e.lineId);
  const itemId = Number(e.itemId);
  const res = deps.requests
    .reservationsOfRequest(requestId)
    .find((r) => r.lineId === lineId && r.location === e.location && r.itemId === itemId);
  const fromReservation = Math.min(res?.quantity ?? 0, e.quantity);
  if (res) deps.requests.setReservation({ ...res, quantity: res.quantity - fromReservation });
  const at = deps.stock.stockAt(e.location, itemId);
  if (at) {
    deps.stock.setQuantity(e.location, itemId, at.quantity - e.quantity);
    deps.stock.reserve(e.location, itemId, -fromReservation);
  }
  return itemId;
}

function recordActual(
  deps: PickDeps,
  requestId: number,
  e: Effect<"record_actual">,
  item: number | null,
  { actor, captured }: { actor: ActualContext; captured: Record<string, string> },
  tx: Tx,
): void {
  const lineId = Number(e.lineId);
  const itemId = item ?? firstItemOfLine(deps, requestId, lineId);
  deps.requests.insertActual({
    id: deps.requests.nextEntityId("container"),
    requestId,
    lineId,
    state: e.state,
    location: e.location ?? null,
    itemId,
    quantity: e.quantity,
    productJson: JSON.stringify({
      pdfa_values: itemId === null ? {} : pdfaValues(deps, itemId),
      package_name: "each",
      package_count: e.quantity,
      ...captured,
    }),
    productId: deps.requests.nextEntityId("product"),
    contextJson: JSON.stringify(actor),
    createdOn: tx.now,
  });
}

function firstItemOfLine(ctx: RequestContext, requestId: number, lineId: number): number | null {
  const res = ctx.requests.reservationsOfRequest(requestId).find((r) => r.lineId === lineId);
  if (res) return res.itemId;
  return ctx.requests.actuals(requestId).find((a) => a.lineId === lineId)?.itemId ?? null;
}

function setExecution(row: RequestRow, patch: Record<string, unknown>): RequestRow {
  const exec = { ...(parseJson<Record<string, unknown>>(row.executionJson) ?? {}), ...patch };
  return { ...row, executionJson: JSON.stringify(exec) };
}

/**
 * The station context every order_information carries (spec "Events": attributes pps_id, pps_bin_id,
 * execution_id, pps_seat_name, user_name), each member present and null until known.
 */
export function withContext(deps: PickDeps, row: RequestRow): RequestRow {
  const exec = parseJson<Record<string, unknown>>(row.executionJson) ?? {};
  return setExecution(row, {
    pps_id: deps.ppsId,
    execution_id: `${deps.ppsId}-${row.id}`,
    pps_bin_id: row.binId,
    pps_seat_name: exec.pps_seat_name ?? null,
    user_name: exec.user_name ?? null,
  });
}

/** Puts the request into the bin (not yet written: the caller writes the row it gets back). */
export function giveBin(deps: PickDeps, row: RequestRow, binId: string, tx: Tx): RequestRow {
  deps.station.setBin(binId, "pick", "none", tx.now);
  tx.announce("station", {});
  return setExecution(
    { ...row, binId, updatedOn: tx.now },
    { pps_id: deps.ppsId, pps_bin_id: binId, execution_id: `${deps.ppsId}-${row.id}` },
  );
}

/** Free bins and the released fulfillable requests waiting for one, in work order. */
function waitingForBins(deps: PickDeps, now: number, extra?: RequestRow) {
  const held = deps.heldBins?.();
  const free = deps.station.bins().filter((b) => b.state === "empty" && !held?.has(b.id));
  if (deps.station.mode() !== "pick" || !free.length) return { free, order: [] };
  const waiting = deps.requests
    .byStates("PICK", ["fulfillable"])
    .filter((r) => r.binId === null && r.id !== extra?.id);
  return { free, order: inWorkOrder(extra ? [...waiting, extra] : waiting, now) };
}

/**
 * The bin a request that is becoming fulfillable gets at once (its turn in work order), so that its
 * fulfillable notification already names `pps_bin_id`; undefined when it has to wait for one.
 */
export function binFor(deps: PickDeps, row: RequestRow, now: number): string | undefined {
  if (row.binId) return undefined;
  const { free, order } = waitingForBins(deps, now, { ...row, state: "fulfillable" });
  const at = order.findIndex((w) => w.row.id === row.id);
  return at >= 0 ? free[at]?.id : undefined;
}

/**
 * Gives free bins to released fulfillable requests, in work order; only in pick mode (docs/architecture.md,
 * pick flow). `lock: "if-assigned"` (a newly allocated request): only a request that got a bin just now can
 * have become lockable, so the presented racks are looked at only then.
 */
export function assignBins(deps: PickDeps, tx: Tx, lock: "always" | "if-assigned" = "always"): void {
  if (deps.station.mode() !== "pick") return;
  let assigned = 0;
  const { free, order } = waitingForBins(deps, tx.now);
  for (const w of order) {
    const bin = free.shift();
    if (!bin) break;
    const row = giveBin(deps, w.row, bin.id, tx);
    deps.requests.update(row);
    tx.announce("request", { type: "PICK", externalServiceRequestId: row.externalId });
    assigned++;
  }
  if (lock === "always" || assigned > 0) lockAtPresentedRacks(deps, tx);
}

/** "first rack reached": a fulfillable request with a bin and stock on a presented rack is locked. */
export function lockAtPresentedRacks(deps: PickDeps, tx: Tx, only?: string[]): void {
  if (deps.station.mode() !== "pick") return;
  const racks = only ?? deps.stock.racks().map((r) => r.msu);
  const locations = racks.flatMap((msu) => deps.stock.locationsOfMsu(msu));
  if (!locations.length) return;
  const candidates = deps.requests
    .requestsReservedAt(locations)
    .map((id) => deps.requests.byId(id))
    .filter((r): r is RequestRow => r !== undefined && r.state === "fulfillable" && r.binId !== null);
  for (const w of inWorkOrder(candidates, tx.now)) {
    const step = stepPick(w.row.state as PickState, { type: "rack_reached" });
    if (isRefusal(step)) continue;
    applyPickEffects(deps, w.row, step, tx);
  }
}

/**
 * `check_bin`: when every request of a bin is done the bin is complete (bin_complete), and for a
 * complete pick+pack it waits for print-ready before it may be emptied. A bin whose requests were all cancelled
 * before a pick holds nothing: it is free again.
 */
export function checkBin(deps: PickDeps, binId: string, tx: Tx): void {
  const inBin = deps.requests.inBin(binId);
  if (!inBin.length || !inBin.every((r) => FINAL.includes(r.state))) return;
  const done = inBin.filter((r) => DONE.includes(r.state));
  if (!done.length) {
    for (const r of inBin) deps.requests.update({ ...r, binId: null, updatedOn: tx.now });
    deps.station.setBin(binId, "empty", "none", tx.now);
    tx.announce("station", {});
    tx.announce("binReleased", { binId, requests: inBin.map((r) => r.externalId) });
    assignBins(deps, tx);
    return;
  }
  // Only a complete pick+pack is packed and labelled; an abandoned one does not wait for print_ready.
  const packed = done.filter((r) => r.isPack && r.state === "complete");
  const pack = packed.length > 0;
  deps.station.setBin(binId, "complete", pack ? "waiting" : "none", tx.now);
  tx.announce("binComplete", { binId, pack, requests: packed.map((r) => r.externalId) });
  tx.notify("bin_complete", {
    ppsId: ppsIdValue(deps.ppsId),
    ppsBinId: binId,
    serviceRequests: done.map((r) => viewOf(r, deps)),
  });
  tx.announce("station", {});
}
