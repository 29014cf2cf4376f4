/**
 * A unit put wrong after a confirm, corrected at the seat by a supervisor (docs/station.md#undo): what
 * the seat's last confirmed pick or put was, and whether a correction of it may be made now. Pure: no IO,
 * no clock; the shell reads the facts (the rack's slots, the stock at the recorded slot) and passes them.
 */

/** The seat's last confirmed work, as the station recorded it: the one thing a correction is about. */
export type LastConfirmed =
  | {
      kind: "put";
      /** the put's request, the item (its uid), the slot recorded and the units put there */
      request: string;
      uid: number;
      slot: string;
      quantity: number;
    }
  | {
      kind: "pick";
      /** the order picked for and the bin the data counts the unit in */
      request: string;
      bin: string;
      quantity: number;
    };

/** The refusals of a correction, each a stable code (docs/station.md#undo). */
export type CorrectionRefusal =
  | "nothing_to_correct"
  | "same_slot"
  | "slot_not_in_rack"
  | "units_gone"
  | "same_bin"
  | "bin_unknown";

/** Every refusal: after one, the correction is still offered (the supervisor chooses again). */
export const CORRECTION_REFUSALS: readonly CorrectionRefusal[] = [
  "nothing_to_correct",
  "same_slot",
  "slot_not_in_rack",
  "units_gone",
  "same_bin",
  "bin_unknown",
];

export type CorrectionDecision<T> = { ok: true; value: T } | { ok: false; reason: CorrectionRefusal };

/** A stock move: the last put's units from the slot recorded to the one they are really in. */
export interface StockMove {
  uid: number;
  from: string;
  to: string;
  quantity: number;
}

/**
 * Whether the last put may be moved to `to`: only the seat's last confirmed put, into another slot of
 * a rack at the station (the operator can only have put into one of those), while the recorded slot still holds its units (once some were picked from it, the
 * correction is a stock count's, not the seat's).
 */
export function decidePutCorrection(
  last: LastConfirmed | null,
  to: string,
  facts: { targetAtStation: boolean; onHandAtRecorded: number },
): CorrectionDecision<StockMove> {
  if (last?.kind !== "put") return { ok: false, reason: "nothing_to_correct" };
  if (to === last.slot) return { ok: false, reason: "same_slot" };
  if (!facts.targetAtStation) return { ok: false, reason: "slot_not_in_rack" };
  if (facts.onHandAtRecorded < last.quantity) return { ok: false, reason: "units_gone" };
  return { ok: true, value: { uid: last.uid, from: last.slot, to, quantity: last.quantity } };
}

/** A unit of the last pick that went into another bin: take it out of `from`, put it into `to`. */
export interface BinMove {
  request: string;
  from: string;
  to: string;
}

/** Whether the last pick's unit may be said to be in `bin` instead of its own: another bin of the station. */
export function decideBinCorrection(
  last: LastConfirmed | null,
  bin: string,
  bins: readonly string[],
): CorrectionDecision<BinMove> {
  if (last?.kind !== "pick") return { ok: false, reason: "nothing_to_correct" };
  if (!bins.includes(bin)) return { ok: false, reason: "bin_unknown" };
  if (bin === last.bin) return { ok: false, reason: "same_bin" };
  return { ok: true, value: { request: last.request, from: bin, to: last.bin } };
}
