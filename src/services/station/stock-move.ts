import { AppError } from "../../domain/errors.js";
import {
  type CorrectionDecision,
  decidePutCorrection,
  type LastConfirmed,
  type StockMove,
} from "../../domain/seat-correction.js";
import type { Tx } from "../unit-of-work/unit-of-work.js";
import { setStock } from "./station-changes.js";
import type { StationDeps } from "./station-deps.js";

/**
 * A put's units moved from the slot recorded to the slot they are really in (docs/station.md#undo): two
 * stock adjustments of the one stock owner (`setStock`, as PUT /station/stock), in the caller's one
 * transaction, so central hears exactly what a stock correction tells it (the station's state).
 */
export function moveStock(deps: StationDeps, move: StockMove, tx: Tx): void {
  const from = deps.stock.location(move.from);
  const to = deps.stock.location(move.to);
  if (!from || !to)
    throw new AppError("not_found", `no slot '${from ? move.to : move.from}'`, [
      { path: from ? "slot" : "from", message: "unknown slot" },
    ]);
  const here = deps.stock.stockAt(move.from, move.uid)?.quantity ?? 0;
  const there = deps.stock.stockAt(move.to, move.uid)?.quantity ?? 0;
  const uid = String(move.uid);
  setStock(deps, { location: move.from, msu: from.msu, uid, quantity: here - move.quantity }, tx);
  setStock(deps, { location: move.to, msu: to.msu, uid, quantity: there + move.quantity }, tx);
}

/**
 * The last put corrected at the seat (docs/station.md#undo): its facts read, the decision made and the
 * units moved in the caller's one transaction; a refusal changes nothing.
 */
export function correctPut(
  deps: StationDeps,
  last: LastConfirmed | null,
  to: string,
  tx: Tx,
): CorrectionDecision<StockMove> {
  const facts = {
    targetAtStation: deps.stock.isPresented(to),
    onHandAtRecorded: last?.kind === "put" ? (deps.stock.stockAt(last.slot, last.uid)?.quantity ?? 0) : 0,
  };
  const decision = decidePutCorrection(last, to, facts);
  if (decision.ok) moveStock(deps, decision.value, tx);
  return decision;
}
