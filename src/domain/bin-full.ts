/**
 * Bin full, box full (docs/station.md#bin-full-box-full; the reporting: docs/decisions.md#bin-full-box-full):
 * a bin that takes no more is closed, and every order still open in it continues in a free bin of
 * its own. Pure: the shell reads the bins and the orders and applies the answer in one transaction.
 *
 * - Units already picked stay recorded in the closed bin: each moved order gets one `closed_bins` entry
 *   naming the bin and the units that went into it (picked so far, less what earlier closed bins hold);
 *   a pick+pack order's closed box gets its own OLPN, `<the order's OLPN>-<n>`, n counting its boxes.
 * - The reported order is moved first, then the others in the order given (work order).
 * - No free bin for every order to move: refused, nothing changes.
 */

/** The bins' states as the station keeps them (db/station.repo.ts). */
export type BinState = "empty" | "pick" | "put" | "complete";

export interface ClosedBin {
  pps_bin_id: string;
  /** units recorded into this bin before it was closed */
  units: number;
  /** a pick+pack box's own OLPN */
  olpn?: string;
}

export interface OrderInBin {
  externalId: string;
  /** not final (fulfillable, cancellation_locked, pick_started): it still takes units */
  open: boolean;
  /** units picked so far (complete actuals), in every bin it had */
  picked: number;
  /** bins closed as full for it before */
  closedBins: readonly ClosedBin[];
  /** a pick+pack order: its OLPN (packing box id, else `<pps>-<id>`); absent for a pick */
  olpn?: string;
}

export interface BinFullInput {
  /** the bin reported full */
  bin: string;
  /** the order whose pick was lit into it */
  order: string;
  /** every bin of the station, in the station's order (the first free one is taken first) */
  bins: readonly { id: string; state: BinState }[];
  /** the orders the bin holds, in work order */
  orders: readonly OrderInBin[];
}

export interface BinMove {
  order: string;
  to: string;
  /** the order's closed bins, this one appended */
  closedBins: ClosedBin[];
}

export type BinFullResult =
  | { ok: true; closed: string; moves: BinMove[] }
  | {
      ok: false;
      reason: "no_free_bin" | "not_in_bin";
      message: string;
    };

export function closeFullBin(input: BinFullInput): BinFullResult {
  const reported = input.orders.find((o) => o.externalId === input.order);
  if (!reported?.open) {
    return {
      ok: false,
      reason: "not_in_bin",
      message: `order ${input.order} is not picked into bin ${input.bin}`,
    };
  }
  const moving = [reported, ...input.orders.filter((o) => o.open && o !== reported)];
  const free = input.bins.filter((b) => b.state === "empty" && b.id !== input.bin).map((b) => b.id);
  if (free.length < moving.length) {
    const need = moving.length === 1 ? "" : ` (${moving.length} orders go on, ${free.length} free)`;
    return { ok: false, reason: "no_free_bin", message: `no free bin: empty a bin first${need}` };
  }
  const moves = moving.map((o, i) => ({
    order: o.externalId,
    to: free[i] as string,
    closedBins: [...o.closedBins, closedEntry(input.bin, o)],
  }));
  return { ok: true, closed: input.bin, moves };
}

function closedEntry(bin: string, o: OrderInBin): ClosedBin {
  const before = o.closedBins.reduce((sum, c) => sum + c.units, 0);
  const units = Math.max(0, o.picked - before);
  return o.olpn === undefined
    ? { pps_bin_id: bin, units }
    : { pps_bin_id: bin, units, olpn: `${o.olpn}-${o.closedBins.length + 1}` };
}
