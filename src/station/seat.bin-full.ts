/**
 * Bin full, box full at a seat (docs/station.md#bin-full-box-full), pure; engine.bin-full.ts applies it.
 * What the engine asks of the station when the operator reports the lit pick's bin full (`EXC-BIN_FULL`,
 * `EXC-BOX_FULL`, or the screen's button), and the seats' pending work once the bin's orders went on in
 * new bins: the lit pick stays lit, now into its order's new bin.
 */
import type { PickTransactionInput } from "../domain/station.schema.js";
import { pickCall, scanEach } from "./seat.pick.js";
import type { SeatState } from "./seat.types.js";

export interface BinFullAsk {
  /** units of a scan-required pick scanned so far: picked into the full bin first, in the same transaction */
  pick?: PickTransactionInput;
  externalServiceRequestId: string;
  ppsBinId: string;
}

/** What a bin full report asks of the station, or why it is refused at this step. */
export function binFullAsk(
  state: SeatState,
  seat: string,
): { ok: true; ask: BinFullAsk } | { ok: false; reason: string; message: string } {
  if (state.step !== "pick_confirm")
    return { ok: false, reason: "not_this_step", message: "no lit bin to close as full" };
  const p = state.pick;
  const scanned = scanEach(p) ? (state.scanned ?? 0) : 0;
  const ask = { externalServiceRequestId: p.externalServiceRequestId, ppsBinId: p.binId };
  if (scanned === 0) return { ok: true, ask };
  const call = pickCall(p, scanned, seat);
  return call.op === "pick" ? { ok: true, ask: { ...ask, pick: call.input } } : { ok: true, ask };
}

/**
 * The seats whose lit pick was into the closed bin, each now into its order's new bin (a seat's own
 * scanned units were picked: what is left to scan is lit, counted from none).
 */
export function continuedSeats(
  states: ReadonlyMap<string, SeatState>,
  done: { closed: string; moves: readonly { order: string; to: string }[] },
  picked: { seat: string; units: number },
): Map<string, SeatState> {
  const changed = new Map<string, SeatState>();
  for (const [seat, s] of states) {
    if (s.step !== "pick_confirm" || s.pick.binId !== done.closed) continue;
    const move = done.moves.find((m) => m.order === s.pick.externalServiceRequestId);
    if (!move) continue;
    const units = seat === picked.seat ? picked.units : 0;
    const pick = { ...s.pick, binId: move.to, quantity: s.pick.quantity - units };
    changed.set(seat, units > 0 ? { ...s, pick, scanned: 0 } : { ...s, pick });
  }
  return changed;
}
