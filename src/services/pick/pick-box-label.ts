import type { ActualRow } from "../../db/requests.repo.js";
import type { ClosedBin } from "../../domain/bin-full.js";
import type { LabelData } from "../../domain/label-data.js";
import { parseJson, pdfaValues } from "../request-record/request-record.js";
import type { Tx } from "../unit-of-work/unit-of-work.js";
import { labelData, productText } from "./pick-bins.js";
import type { PickDeps } from "./pick-deps.js";

/**
 * A pick+pack box closed as full (docs/station.md#bin-full-box-full) has a label of its own: the box's
 * OLPN (`<OLPN>-<n>`) and the units in it. The boxes of an order are filled one after another, so box n
 * holds the units picked after the boxes before it: its share of the order's complete actuals, in the
 * order they were picked.
 */
export function boxLabelData(
  deps: PickDeps,
  externalId: string,
  olpn: string,
  printedAt: string,
): LabelData | undefined {
  const row = deps.requests.find("PICK", externalId);
  const order = labelData(deps, externalId, printedAt);
  if (!row || !order) return undefined;
  const exec = parseJson<Record<string, unknown>>(row.executionJson) ?? {};
  const boxes = Array.isArray(exec.closed_bins) ? (exec.closed_bins as ClosedBin[]) : [];
  const at = boxes.findIndex((b) => b.olpn === olpn);
  const box = boxes[at];
  if (!box) return undefined;
  const from = boxes.slice(0, at).reduce((sum, b) => sum + b.units, 0);
  const picked = deps.requests.actuals(row.id).filter((a) => a.state === "complete" && a.itemId !== null);
  return {
    ...order,
    // the carrier's label is the order's (one shipment), printed on its last box: a box closed as full
    // gets the agent's own label (docs/station.md#carrier-labels)
    carrierLabelUrl: undefined,
    olpn,
    station: `${deps.ppsId}/${box.pps_bin_id}`,
    lines: unitsBetween(picked, from, from + box.units).map(([itemId, quantity]) => ({
      product: productText(pdfaValues(deps, itemId)),
      description: deps.items.descriptionOf(itemId),
      quantity,
    })),
  };
}

/** The units [from, to) of the actuals in the order picked, by item (first picked first). */
function unitsBetween(actuals: readonly ActualRow[], from: number, to: number): Array<[number, number]> {
  const byItem = new Map<number, number>();
  let seen = 0;
  for (const a of [...actuals].sort((x, y) => x.id - y.id)) {
    const start = Math.max(seen, from);
    const end = Math.min(seen + a.quantity, to);
    if (end > start) byItem.set(a.itemId as number, (byItem.get(a.itemId as number) ?? 0) + end - start);
    seen += a.quantity;
  }
  return [...byItem];
}

/** A closed box's label printed (or skipped at the seat by a supervisor): the bin may be taken away. */
export function boxLabelled(deps: PickDeps, binId: string, tx: Tx): void {
  const bin = deps.station.bin(binId);
  if (bin?.state !== "complete" || bin.printState !== "waiting") return;
  deps.station.setBin(binId, "complete", "done", tx.now);
  tx.announce("station", {});
}
