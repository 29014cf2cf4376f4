/**
 * A unit put wrong after a confirm, corrected at the seat (docs/station.md#undo): the supervisor's taps
 * "Correct the last put" (the units moved to the slot they are really in, through the stock owner) and
 * "A unit went into the wrong bin" (the bin to take it out of and the bin to put it into; the data was
 * right, so nothing changes in it: docs/decisions.md#a-unit-in-the-wrong-bin-or-slot). Each is recorded with the
 * operator's and the supervisor's names; the security event log records the authorisation (screen.routes.ts).
 */
import { isAppError } from "../../domain/errors.js";
import {
  type CorrectionDecision,
  decideBinCorrection,
  type LastConfirmed,
  type StockMove,
} from "../../domain/seat-correction.js";
import type { Outcome } from "../engine.js";
import type { LastConfirmedMemory } from "./last-confirmed.js";

export type CorrectionAction = { type: "correct_put"; slot: string } | { type: "wrong_bin"; bin: string };

export interface CorrectionDeps {
  last: Pick<LastConfirmedMemory, "of" | "forget">;
  /** The stock owner's correction of a put, in one transaction (operations `correctPut`). */
  correctPut(last: LastConfirmed | null, to: string): CorrectionDecision<StockMove>;
  /** The station's order bins. */
  bins: readonly string[];
  user(seat: string): string | null;
  /** The correction's record with both names (the operations log). */
  note(event: string, fields: Record<string, unknown>): void;
  record(seat: string, input: { kind: "tap"; text: string; action?: string }, outcome: Outcome): void;
  /** Lights the bin to take the unit out of and the order's own bin (engine `showBinMove`); none: no lights. */
  showMove?(seat: string, from: string, to: string): void;
}

const WORDS: Record<string, string> = {
  nothing_to_correct: "no confirmed pick or put of this seat to correct",
  same_slot: "the units are recorded in that slot already",
  slot_not_in_rack: "that slot is not in a rack at the station",
  units_gone: "the slot recorded no longer holds the units put: count it instead",
  same_bin: "that is the bin the unit belongs in",
  bin_unknown: "no such bin at the station",
};

function correctPut(deps: CorrectionDeps, seat: string, slot: string, by: string | null): Outcome {
  const last = deps.last.of(seat);
  let out: Outcome;
  try {
    const d = deps.correctPut(last, slot);
    if (d.ok) {
      const { from, to, quantity, uid } = d.value;
      deps.last.forget(seat);
      deps.note("stock_corrected", {
        seat,
        operator: deps.user(seat),
        supervisor: by,
        request: last?.request ?? null,
        uid,
        from,
        to,
        quantity,
      });
      out = { seat, result: "done", did: "put_corrected", params: { from, to, quantity: String(quantity) } };
    } else out = { seat, result: "refused", reason: d.reason, message: WORDS[d.reason] ?? d.reason };
  } catch (err) {
    if (!isAppError(err)) throw err;
    out = { seat, result: "refused", reason: err.code, message: err.message };
  }
  deps.record(seat, { kind: "tap", text: slot, action: "put_corrected" }, out);
  return out;
}

function wrongBin(deps: CorrectionDeps, seat: string, bin: string, by: string | null): Outcome {
  const last = deps.last.of(seat);
  const d = decideBinCorrection(last, bin, deps.bins);
  let out: Outcome;
  if (d.ok) {
    const { request, from, to } = d.value;
    deps.last.forget(seat);
    deps.note("bin_corrected", { seat, operator: deps.user(seat), supervisor: by, request, from, to });
    deps.showMove?.(seat, from, to);
    out = { seat, result: "done", did: "bin_corrected", params: { from, to, order: request } };
  } else out = { seat, result: "refused", reason: d.reason, message: WORDS[d.reason] ?? d.reason };
  deps.record(seat, { kind: "tap", text: bin, action: "bin_corrected" }, out);
  return out;
}

/** `by`: the supervisor whose badge or PIN authorised the tap (or the admin signed in on the screen). */
export function correctionTap(
  deps: CorrectionDeps,
  seat: string,
  a: CorrectionAction,
  by: string | null,
): Outcome {
  return a.type === "correct_put" ? correctPut(deps, seat, a.slot, by) : wrongBin(deps, seat, a.bin, by);
}
