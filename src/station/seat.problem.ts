/**
 * Problems an operator reports with a quantity (pure; docs/station.md#operator-screen "Problems"): the
 * screen's problem entries map onto the engine's exceptions with the quantity the operator gives,
 * instead of settling the whole remaining quantity at once.
 *
 * Pick, bin lit (r = units still to put into the bin; the others are put in and picked):
 * - `missing` q: the slot is empty for q units: pick r−q, exception `missing` (q) at the slot;
 * - `short` q: the slot holds q fewer than asked: pick r−q, exception `item_missing` (q);
 * - `damaged` q: q units are damaged and set aside: pick r−q, exception `physically_damaged` (q).
 * A scan-required item picks only the units scanned; the others of r−q stay on the line.
 * Pick, before a scan (the next line on the screen, `target`): `missing` and `wrong_slot` (the slot is
 * empty, or holds another item) record `missing` (q) at the slot; `short` records `item_missing` (q).
 * Put, item counted: `damaged`, `missing`, `extra` (EXCESS), `wrong_slot` (SPACE_UNAVAILABLE), each
 * where the seat's side has that state (scan-codes.ts `putReason`), with q units.
 */
import type { PickExceptionReason } from "../domain/pick.machine.js";
import { type ExceptionCode, putReason } from "./scan-codes.js";
import { moved, refused } from "./seat.result.js";
import type { OpCall, PickTarget, SeatState, SeatStep, StationMode } from "./seat.types.js";

export const PROBLEM_KINDS = ["missing", "damaged", "short", "extra", "wrong_slot"] as const;
export type ProblemKind = (typeof PROBLEM_KINDS)[number];

export interface ProblemOption {
  kind: ProblemKind;
  /** the most units the report may name */
  max: number;
  /** the units it names when the operator does not say */
  default: number;
}

/** Extra units in a tote: no expectation bounds them, this does. */
export const MAX_EXTRA = 999;

/**
 * The container exception each problem reports, with a quantity where the one-tap exception would
 * settle everything left (a put's problems are sent as these; the screen offers the problem instead of
 * the tap).
 */
export const EXCEPTION_OF: Readonly<Record<ProblemKind, ExceptionCode>> = {
  missing: "ITEM_MISSING",
  short: "ITEM_MISSING",
  damaged: "PHYSICALLY_DAMAGED",
  extra: "EXCESS",
  wrong_slot: "SPACE_UNAVAILABLE",
};

/** A put's problems, in the order the screen lists them. */
const PUT_KINDS: readonly ProblemKind[] = ["missing", "damaged", "extra", "wrong_slot"];

const option = (kind: ProblemKind, max: number, def = max): ProblemOption => ({
  kind,
  max,
  default: Math.min(def, max),
});

/** Units of the lit pick still to put into the bin. */
function pickLeft(s: Extract<SeatState, { step: "pick_confirm" }>): number {
  return s.pick.quantity - (s.scanned ?? 0);
}

/** The problems the seat may report now (`next`: the line the screen shows next, before a scan). */
export function problemOptions(
  state: SeatState,
  mode: StationMode,
  seat: string,
  next: PickTarget | null,
): ProblemOption[] {
  if (state.step === "pick_confirm") {
    const r = pickLeft(state);
    if (r < 1) return [];
    // too few: the operator says how many are missing, nothing is assumed (docs/decisions.md#operator-screen)
    return [option("missing", r), option("damaged", r), option("short", r, 0)];
  }
  if (state.step === "put_slot" || state.step === "put_confirm") {
    const left = Math.max(1, state.put.left);
    return PUT_KINDS.filter((kind) => putReason(EXCEPTION_OF[kind], seat) !== null).map((kind) =>
      kind === "extra" ? option(kind, MAX_EXTRA, 1) : option(kind, left),
    );
  }
  if (state.step === "ready" && mode === "pick" && next !== null)
    return [
      option("missing", next.quantity),
      option("short", next.quantity, 0),
      option("wrong_slot", next.quantity),
    ];
  return [];
}

function pickCalls(
  p: PickTarget,
  picked: number,
  reason: PickExceptionReason,
  quantity: number,
  seat: string,
): OpCall[] {
  const { externalServiceRequestId, line, location } = p;
  // the item by its uid: the line may hold two items at the slot (docs/decisions.md#item-identity)
  const uid = String(p.itemId);
  const calls: OpCall[] = [];
  if (picked > 0)
    calls.push({
      op: "pick",
      input: { externalServiceRequestId, line, location, uid, quantity: picked, seat },
    });
  calls.push({
    op: "pickException",
    input: { externalServiceRequestId, line, location, uid, quantity, reason, seat },
  });
  return calls;
}

const PICK_REASON: Record<ProblemKind, PickExceptionReason | null> = {
  missing: "missing",
  short: "item_missing",
  damaged: "physically_damaged",
  wrong_slot: "missing",
  extra: null,
};

/** The operation calls of a problem of `quantity` units, or a refusal (the kind is not open now, or too many). */
export function problemStep(
  state: SeatState,
  p: { kind: ProblemKind; quantity: number; mode: StationMode; seat: string; next: PickTarget | null },
): SeatStep {
  const open = problemOptions(state, p.mode, p.seat, p.next).find((o) => o.kind === p.kind);
  if (!open)
    return refused("exception_not_applicable", `no ${p.kind} problem can be reported now`, "exception");
  if (p.quantity < 1 || p.quantity > open.max)
    return refused("more_than_expected", `at most ${open.max} for ${p.kind} here`, "exception");
  const q = p.quantity;
  const reason = PICK_REASON[p.kind];
  if (state.step === "pick_confirm" && reason) {
    const scanEach = state.pick.scanRequired === true;
    const picked = scanEach ? (state.scanned ?? 0) : state.pick.quantity - q;
    const calls = pickCalls(state.pick, picked, reason, q, p.seat);
    return moved({ step: "ready", tote: null }, calls, "exception", "pick_exception");
  }
  if (state.step === "ready" && p.next && reason) {
    const calls = pickCalls(p.next, 0, reason, q, p.seat);
    return moved(state, calls, "exception", "pick_exception");
  }
  if (state.step === "put_slot" || state.step === "put_confirm") {
    const put = PUT_KINDS.includes(p.kind) ? putReason(EXCEPTION_OF[p.kind], p.seat) : null;
    if (!put) return refused("exception_not_applicable", `no ${p.kind} at seat ${p.seat}`, "exception");
    const input = {
      externalServiceRequestId: state.put.externalServiceRequestId,
      uid: String(state.put.itemId),
      quantity: q,
      reason: put,
      seat: p.seat,
    };
    return moved(
      { step: "ready", tote: state.tote },
      [{ op: "putException", input }],
      "exception",
      "put_exception",
    );
  }
  return refused("exception_not_applicable", `no ${p.kind} problem can be reported now`, "exception");
}
