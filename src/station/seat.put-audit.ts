/**
 * Put and audit steps of the seat machine (pure; see seat.machine.ts).
 *
 * Put (docs/architecture.md#put): the item from the tote (each scan one unit; a key-in sets the count), then
 * the target slot (its light, where fitted, shows the quantity), then confirm: the tote bin's button,
 * EXC-CONFIRM, or a key-in quantity. A tote scan selects that tote (later items must be its) or, once
 * the put is complete, releases it.
 *
 * Audit (docs/architecture.md#audit): the slot, then each unit of each item there (or a key-in count where the
 * audit's `kq` allows); the next slot or EXC-CONFIRM closes the slot: every open line there is counted,
 * a line whose item was never scanned as zero.
 */
import { type ExceptionCode, putReason } from "./scan-codes.js";
import { eachUnit, scanEach } from "./seat.pick.js";
import { moved, refused } from "./seat.result.js";
import type { DataMeaning, OpCall, Resolved, SeatFacts, SeatState, SeatStep } from "./seat.types.js";

type Ready = Extract<SeatState, { step: "ready" }>;
type Putting = Extract<SeatState, { step: "put_slot" | "put_confirm" }>;
type Counting = Extract<SeatState, { step: "audit_count" }>;
type Slot = Extract<DataMeaning, { kind: "slot" }>;

export function tote(m: Extract<DataMeaning, { kind: "tote" }>): SeatStep {
  if (m.state === "complete") {
    const call: OpCall = { op: "release", externalServiceRequestId: m.externalServiceRequestId };
    return moved({ step: "ready", tote: null }, [call], "tote", "released");
  }
  if (m.state !== "staged") return refused("not_expected", `the put of this tote is ${m.state}`, "tote");
  return moved({ step: "ready", tote: m.externalServiceRequestId }, [], "tote", "tote_selected");
}

export function putItem(state: Ready | Putting, m: DataMeaning, w: SeatFacts): SeatStep {
  if (m.kind !== "item") return refused("not_this_step", `a ${m.kind} scan is not expected now`, m.kind);
  if (state.step !== "ready") {
    // another unit of the same item; a different item waits until this one is put
    if (m.itemId !== state.put.itemId)
      return refused("finish_first", "put or cancel the pending item first", "item");
    const next = { ...state, quantity: state.quantity + 1 };
    return moved(next, [], "item", "counted");
  }
  const mine = w.puts.filter(
    (p) => p.itemId === m.itemId && (state.tote === null || p.externalServiceRequestId === state.tote),
  );
  // a put still expecting the item first; one that expects no more takes it only as excess
  const put = mine.find((p) => p.left > 0) ?? mine[0];
  if (!put) return refused("not_expected", "no staged put expects this item", "item");
  const each = m.scanRequired ? { scanRequired: true } : {};
  const next: Putting = { step: "put_slot", tote: state.tote, put: { ...put, ...each }, quantity: 1 };
  return moved(next, [], "item", "put_item");
}

export function putSlot(state: Putting, m: Slot): SeatStep {
  if (!m.presented)
    return refused("slot_not_presented", `slot ${m.location} is not on a presented rack`, "slot");
  const next: Putting = {
    step: "put_confirm",
    tote: state.tote,
    put: state.put,
    quantity: state.quantity,
    location: m.location,
  };
  return moved(next, [], "slot", "slot_selected");
}

export function putKeyin(state: Extract<SeatState, { step: "put_slot" }>, quantity: number): SeatStep {
  if (scanEach(state.put)) return eachUnit("keyin");
  // the limit the screen's numpad shows (`keyin.max`): refused up front, not only at confirm
  if (quantity > state.put.left)
    return refused("more_than_expected", `at most ${state.put.left} to put for this tote`, "keyin");
  const next = { ...state, quantity };
  return moved(next, [], "keyin", "quantity_set");
}

// A put call names the scanned item by its uid, never by its SKU, which two expected items may share
// (docs/decisions.md#item-identity).
export function putConfirm(
  state: Extract<SeatState, { step: "put_confirm" }>,
  as: Resolved["as"],
  seat: string,
  quantity?: number,
): SeatStep {
  if (quantity !== undefined && scanEach(state.put)) return eachUnit(as);
  const q = quantity ?? state.quantity;
  if (q > state.put.left)
    return refused(
      "more_than_expected",
      `the put expects ${state.put.left} more; scan EXC-EXCESS for extras`,
      as,
    );
  const input = {
    externalServiceRequestId: state.put.externalServiceRequestId,
    uid: String(state.put.itemId),
    location: state.location,
    quantity: q,
    seat,
  };
  const call: OpCall = { op: "put", input };
  return moved({ step: "ready", tote: state.tote }, [call], as, "put");
}

export function putException(state: Putting, code: ExceptionCode, w: SeatFacts): SeatStep {
  const reason = putReason(code, w.seat);
  if (!reason)
    return refused(
      "exception_not_applicable",
      `${code} is not a put exception at seat ${w.seat}`,
      "exception",
    );
  const input = {
    externalServiceRequestId: state.put.externalServiceRequestId,
    uid: String(state.put.itemId),
    quantity: state.quantity,
    reason,
    seat: w.seat,
  };
  const call: OpCall = { op: "putException", input };
  return moved({ step: "ready", tote: state.tote }, [call], "exception", "put_exception", code);
}

const openAt = (w: SeatFacts, location: string) =>
  (w.audit?.lines ?? []).filter((l) => l.open && l.location === location);

/** Counts of the slot being closed, one call per open line there (unscanned lines count zero). */
function closeCalls(state: Counting, w: SeatFacts): OpCall[] {
  return openAt(w, state.location).map((l) => ({
    op: "auditCount" as const,
    auditId: state.auditId,
    input: {
      audit_line_id: l.auditLineId,
      good_qty: state.counts[l.auditLineId] ?? 0,
      damaged_qty: state.damaged?.[l.auditLineId] ?? 0,
      unscannable_qty: state.unscannable?.[l.auditLineId] ?? 0,
    },
  }));
}

export function commitLocation(state: Counting, w: SeatFacts, as: Resolved["as"]): SeatStep {
  if (w.audit?.auditId !== state.auditId) return moved({ step: "ready", tote: null }, [], as, "dropped");
  return moved({ step: "ready", tote: null }, closeCalls(state, w), as, "location_counted");
}

export function auditSlot(state: Ready | Counting, m: Slot, w: SeatFacts): SeatStep {
  if (!w.audit) return refused("no_audit", "no audit is being counted at the station", "slot");
  if (state.step === "audit_count" && state.location === m.location)
    return moved(state, [], "slot", "location_selected");
  if (!openAt(w, m.location).length)
    return refused("not_expected", `slot ${m.location} has nothing left to count`, "slot");
  const before = state.step === "audit_count" ? closeCalls(state, w) : [];
  return moved(
    { step: "audit_count", auditId: w.audit.auditId, location: m.location, counts: {}, last: null },
    before,
    "slot",
    "location_selected",
  );
}

export function auditItem(state: Ready | Counting, m: DataMeaning, w: SeatFacts): SeatStep {
  if (m.kind !== "item") return refused("not_this_step", `a ${m.kind} scan is not expected now`, m.kind);
  if (!w.audit) return refused("no_audit", "no audit is being counted at the station", "item");
  let at = state;
  if (at.step === "ready") {
    // with one slot to count for this item, the item scan also chooses the slot
    const slots = new Set(
      w.audit.lines.filter((l) => l.open && l.itemId === m.itemId).map((l) => l.location),
    );
    const only = [...slots][0];
    if (slots.size !== 1 || only === undefined)
      return refused("not_this_step", "scan the slot being counted first", "item");
    at = { step: "audit_count", auditId: w.audit.auditId, location: only, counts: {}, last: null };
  }
  const line = openAt(w, at.location).find((l) => l.itemId === m.itemId);
  if (!line) return refused("not_expected", `this item is not counted at slot ${at.location}`, "item");
  const counts = { ...at.counts, [line.auditLineId]: (at.counts[line.auditLineId] ?? 0) + 1 };
  const next: Counting = { ...at, counts, last: line.auditLineId };
  if (m.scanRequired) next.lastScanRequired = true;
  else delete next.lastScanRequired;
  return moved(next, [], "item", "counted");
}

export function auditKeyin(state: Counting, quantity: number, w: SeatFacts): SeatStep {
  if (!w.audit?.kq)
    return refused("keyin_not_allowed", "this audit is counted by scans (kq is false)", "keyin");
  if (state.last === null)
    return refused("not_this_step", "scan the item whose count you key in first", "keyin");
  if (state.lastScanRequired) return eachUnit("keyin");
  return moved(
    { ...state, counts: { ...state.counts, [state.last]: quantity } },
    [],
    "keyin",
    "quantity_set",
  );
}

/**
 * Audit exceptions (damaged, unscannable): one more unit of the line of the last scanned item, or of
 * the slot's only open line when nothing was scanned yet (an unscannable item cannot be scanned).
 */
export function auditException(state: Counting, code: ExceptionCode, w: SeatFacts): SeatStep {
  const kind = code === "PHYSICALLY_DAMAGED" ? "damaged" : code === "UNSCANNABLE" ? "unscannable" : null;
  if (!kind) return refused("exception_not_applicable", `${code} is not an audit exception`, "exception");
  const open = openAt(w, state.location);
  const line = state.last ?? (open.length === 1 ? (open[0]?.auditLineId ?? null) : null);
  if (line === null)
    return refused("not_this_step", "scan an item of the line first (the slot has several)", "exception");
  const counted = { ...state[kind], [line]: (state[kind]?.[line] ?? 0) + 1 };
  return moved({ ...state, [kind]: counted }, [], "exception", `audit_${kind}`, code);
}
