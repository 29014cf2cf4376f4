import type { LineRow, RequestRow } from "../../db/requests.repo.js";
import { AppError } from "../../domain/errors.js";
import { theOneNamed } from "../../domain/item.identity.js";
import { isRefusal } from "../../domain/machine.js";
import { type PickEffect, type PickState, stepPick } from "../../domain/pick.machine.js";
import { outstanding, type PickLine, stepPickLine, summarizeLines } from "../../domain/pick-line.machine.js";
import type { PickExceptionInput, PickTransactionInput } from "../../domain/station.schema.js";
import { mustFind, operatorIn, parseJson, pdfaValues } from "../request-record/request-record.js";
import type { Tx } from "../unit-of-work/unit-of-work.js";
import { packOlpn } from "./pick-bin-full.js";
import { capturedAttributes } from "./pick-capture.js";
import { pastDeadline } from "./pick-deadline.js";
import { lineState, type PickDeps } from "./pick-deps.js";
import { type ActualContext, applyPickEffects } from "./pick-effects.js";

/** The operator's pick transactions and exceptions at the station (docs/architecture.md#pick). */

function findLine(deps: PickDeps, row: RequestRow, externalLineId: string): LineRow {
  const line = deps.requests.lines(row.id).find((l) => l.externalId === externalLineId);
  if (!line) {
    throw new AppError("not_found", `request '${row.externalId}' has no line '${externalLineId}'`, [
      { path: "line", message: "unknown pick line" },
    ]);
  }
  return line;
}

/**
 * Records the request-level step, then follows with lines_short when the transaction left nothing to
 * pick and some line short (`endsShort`, from the lines as the transaction stepped them).
 */
function finish(
  deps: PickDeps,
  row: RequestRow,
  step: { state: PickState; effects: PickEffect[] },
  actor: ActualContext,
  at: { itemHint: number | null; endsShort: boolean; captured?: Record<string, string> },
  tx: Tx,
): RequestRow {
  const exec: Record<string, unknown> = {
    ...(parseJson<Record<string, unknown>>(row.executionJson) ?? {}),
    pps_seat_name: actor.pps_seat_name,
    user_name: actor.user_name,
  };
  let withOlpn = exec;
  if (step.state === "complete" && row.isPack) withOlpn = { ...exec, olpn: packOlpn(deps, row.id) };
  let next = applyPickEffects(
    deps,
    { ...row, executionJson: JSON.stringify(withOlpn) },
    step,
    tx,
    actor,
    at.itemHint,
    undefined,
    at.captured,
  );
  if (next.state === "pick_started" && at.endsShort) {
    const short = stepPick(next.state, { type: "lines_short" });
    if (!isRefusal(short)) {
      for (const l of deps.requests.lines(row.id)) {
        const ls = stepPickLine(lineState(l), { type: "abandon" });
        if (!isRefusal(ls)) deps.requests.updateLine({ ...l, state: ls.state.state, updatedOn: tx.now });
      }
      next = applyPickEffects(deps, next, short, tx, actor);
    }
  }
  return next;
}

function lineStep(line: PickLine, input: { type: "pick" | "exception"; quantity: number }): PickLine {
  const step = stepPickLine(line, input);
  if (isRefusal(step)) {
    const left = outstanding(line);
    if (input.quantity > left) {
      throw new AppError(
        "validation_failed",
        `quantity ${input.quantity} is more than the ${left} outstanding`,
        [{ path: "quantity", message: `at most ${left}` }],
      );
    }
    throw new AppError("invalid_state", step.error.reason, [
      { path: "line", message: `line is ${line.state}` },
    ]);
  }
  return step.state;
}

/**
 * A transaction that leaves nothing to pick but some line short ends the request: `finish` follows with
 * lines_short → abandoned. The transaction's own item-picked notification still says pick_started, so
 * the line it settled is held at pick_started there and abandoned with the request in the next one:
 * "Item picked notifications contain the complete current state of the request" (emission rule 2), and
 * a root state of pick_started beside lines already abandoned would contradict itself.
 */
function heldUntilAbandoned(next: PickLine, endsShort: boolean): PickLine {
  return next.state === "abandoned" && endsShort ? { ...next, state: "pick_started" } : next;
}

/** Writes the line as the operator's move left it. */
function saveLine(deps: PickDeps, line: LineRow, next: PickLine, tx: Tx): void {
  deps.requests.updateLine({
    ...line,
    state: next.state,
    picked: next.picked,
    short: next.short,
    updatedOn: tx.now,
  });
}

function refused(row: RequestRow, reason: string): AppError {
  return new AppError("invalid_state", reason, [
    { path: "externalServiceRequestId", message: `request is ${row.state}` },
  ]);
}

/**
 * The reservation of the item picked: the one the call names by uid, else the line's only item at the
 * slot; a line whose filters hold several items there needs the uid (docs/decisions.md#item-identity).
 */
function oneItemOf<R extends { itemId: number }>(
  deps: PickDeps,
  here: R[],
  uid: string | undefined,
): R | undefined {
  if (uid !== undefined) return here.find((r) => r.itemId === Number(uid));
  if (new Set(here.map((r) => r.itemId)).size < 2) return here[0];
  const candidates = here.map((r) => ({ id: r.itemId, values: pdfaValues(deps, r.itemId) }));
  const chosen = theOneNamed(candidates, "uid", "the slot's reservation for this line");
  return here.find((r) => r.itemId === chosen.id);
}

/** The line's reservation at the slot, which must be on a presented rack and hold the quantity. */
function reservationAt(deps: PickDeps, row: RequestRow, line: LineRow, input: PickTransactionInput) {
  if (!deps.stock.isPresented(input.location)) {
    throw new AppError("invalid_state", `slot '${input.location}' is not on a rack at the station`, [
      { path: "location", message: "present its rack first" },
    ]);
  }
  const here = deps.requests
    .reservationsOfRequest(row.id)
    .filter((r) => r.lineId === line.id && r.location === input.location && r.quantity > 0);
  const res = oneItemOf(deps, here, input.uid);
  if (!res || res.quantity < input.quantity) {
    throw new AppError(
      "invalid_state",
      `line '${input.line}' holds ${res?.quantity ?? 0} at '${input.location}'`,
      [
        {
          path: "location",
          message: res ? `at most ${res.quantity} reserved here` : "no stock reserved for this line here",
        },
      ],
    );
  }
  return res;
}

/**
 * A request past its pick_before_time is not started any more (pick-deadline.ts ends it at that time):
 * its first pick or exception is refused.
 */
function notPastDeadline(row: RequestRow, now: number): RequestRow {
  if (pastDeadline(row, now)) throw refused(row, "its pick_before_time has passed");
  return row;
}

/** One pick transaction: items from a slot into the order's bin, by the operator at a seat. */
export function recordPick(deps: PickDeps, input: PickTransactionInput, tx: Tx): RequestRow {
  const op = operatorIn(deps, "pick", input.seat);
  const row = notPastDeadline(mustFind(deps, "PICK", input.externalServiceRequestId), tx.now);
  const line = findLine(deps, row, input.line);
  const res = reservationAt(deps, row, line, input);
  const captured = capturedAttributes(deps, res.itemId, input, tx.now);
  const stepped = lineStep(lineState(line), { type: "pick", quantity: input.quantity });
  const lines = deps.requests.lines(row.id).map((l) => (l.id === line.id ? stepped : lineState(l)));
  const endsShort = summarizeLines(lines) === "short";
  const nextLine = heldUntilAbandoned(stepped, endsShort);
  const step = stepPick(row.state as PickState, {
    type: "pick_transaction",
    lineId: String(line.id),
    location: input.location,
    itemId: String(res.itemId),
    quantity: input.quantity,
    last: summarizeLines(lines) === "complete",
  });
  if (isRefusal(step)) throw refused(row, step.error.reason);
  saveLine(deps, line, nextLine, tx);
  return finish(
    deps,
    row,
    step,
    { user_name: op.user, pps_seat_name: op.seat },
    { itemHint: null, endsShort, captured },
    tx,
  );
}

/**
 * Missing, damaged or unscannable items, or an empty slot: recorded as actuals with that state, at the
 * slot. The items are not where stock said, so the reservation is released and the on-hand quantity
 * written down there; `missing` (the slot is empty) also writes down what no other request holds.
 */
export function recordPickException(deps: PickDeps, input: PickExceptionInput, tx: Tx): RequestRow {
  const op = operatorIn(deps, "pick", input.seat);
  const row = notPastDeadline(mustFind(deps, "PICK", input.externalServiceRequestId), tx.now);
  const line = findLine(deps, row, input.line);
  const stepped = lineStep(lineState(line), { type: "exception", quantity: input.quantity });
  const lines = deps.requests.lines(row.id).map((l) => (l.id === line.id ? stepped : lineState(l)));
  const endsShort = summarizeLines(lines) === "short";
  const nextLine = heldUntilAbandoned(stepped, endsShort);
  const at = writeDown(deps, row, line, input);
  const step = stepPick(row.state as PickState, {
    type: "exception",
    lineId: String(line.id),
    quantity: input.quantity,
    reason: input.reason,
    ...(at.location === undefined ? {} : { location: at.location }),
  });
  if (isRefusal(step)) throw refused(row, step.error.reason);
  if (input.reason === "missing" && at.itemId !== null && at.location !== undefined)
    emptySlot(deps, at.location, at.itemId);
  saveLine(deps, line, nextLine, tx);
  const actor = { user_name: op.user, pps_seat_name: op.seat };
  return finish(deps, row, step, actor, { itemHint: at.itemId, endsShort }, tx);
}

/** The slot holds none of the item: what other requests still hold there is all that stays on hand. */
function emptySlot(deps: PickDeps, location: string, itemId: number): void {
  const stock = deps.stock.stockAt(location, itemId);
  if (stock) deps.stock.setQuantity(location, itemId, stock.reserved);
}

/**
 * Releases `quantity` of the line's reservations, the named item's and the named slot's first, then
 * those on presented racks; returns the item and the slot the exception is recorded at.
 */
function writeDown(
  deps: PickDeps,
  row: RequestRow,
  line: LineRow,
  input: Pick<PickExceptionInput, "quantity" | "location" | "uid">,
): { itemId: number | null; location: string | undefined } {
  const { quantity, location } = input;
  let left = quantity;
  let itemId: number | null = null;
  let where = location;
  // the named item first (docs/decisions.md#item-identity), then the named slot, then presented racks
  const rank = (r: { location: string; itemId: number }) =>
    (String(r.itemId) === input.uid ? 4 : 0) +
    (r.location === location ? 2 : 0) +
    Number(deps.stock.isPresented(r.location));
  const mine = deps.requests.reservationsOfRequest(row.id).filter((r) => r.lineId === line.id);
  mine.sort((a, b) => rank(b) - rank(a));
  for (const r of mine) {
    if (left === 0) break;
    const take = Math.min(left, r.quantity);
    itemId ??= r.itemId;
    where ??= r.location;
    deps.requests.setReservation({ ...r, quantity: r.quantity - take });
    const at = deps.stock.stockAt(r.location, r.itemId);
    if (at) {
      deps.stock.reserve(r.location, r.itemId, -take);
      deps.stock.setQuantity(r.location, r.itemId, Math.max(0, at.quantity - take));
    }
    left -= take;
  }
  return { itemId, location: where };
}
