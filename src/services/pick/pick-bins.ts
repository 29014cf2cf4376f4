import { AppError } from "../../domain/errors.js";
import type { LabelData } from "../../domain/label-data.js";
import { parseJson, pdfaValues, viewOf } from "../request-record/request-record.js";
import type { Tx } from "../unit-of-work/unit-of-work.js";
import type { PickDeps } from "./pick-deps.js";
import { assignBins } from "./pick-effects.js";

/**
 * Order bins after the picking (docs/architecture.md#pick): a complete pick+pack bin waits for its label
 * (print_ready), then the operator empties it and it takes the next request.
 */

/** What the shipping label of a pick+pack order shows (labels/shipping-label.ts). */
export function labelData(deps: PickDeps, externalId: string, printedAt: string): LabelData | undefined {
  const row = deps.requests.find("PICK", externalId);
  if (!row?.isPack) return undefined;
  const lines = deps.requests.lines(row.id);
  const pack = parseJson<Record<string, unknown>>(lines[0]?.attributesJson ?? null) ?? {};
  const exec = parseJson<Record<string, unknown>>(row.executionJson) ?? {};
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);
  return {
    externalServiceRequestId: row.externalId,
    olpn: str(exec.olpn) ?? `${deps.ppsId}-${row.id}`,
    orderNumber: str(pack.order_number),
    shippingAddress: str(pack.shipping_address),
    carrierLabelUrl: str(pack.carrier_label_url),
    packingBoxId: str(pack.packing_box_id),
    packingBoxType: str(pack.packing_box_type),
    station: `${deps.ppsId}/${str(exec.pps_bin_id) ?? row.binId ?? "?"}`,
    lines: packedItems(deps, row.id).map(([itemId, quantity]) => ({
      product: productText(pdfaValues(deps, itemId)),
      description: deps.items.descriptionOf(itemId),
      quantity,
    })),
    printedAt,
  };
}

/** print_ready: the external printing of a pick+pack order is done; its bin may be released. */
export function printReady(deps: PickDeps, externalId: string, tx: Tx): void {
  const row = deps.requests.find("PICK", externalId);
  if (!row) {
    throw new AppError("not_found", `no PICK service request '${externalId}'`, [
      { path: "externalServiceRequestId", message: "unknown" },
    ]);
  }
  const bin = row.binId ? deps.station.bin(row.binId) : undefined;
  if (!row.isPack || !bin || bin.printState !== "waiting") {
    throw new AppError(
      "invalid_order_status",
      `order '${externalId}' is not waiting for print (state ${row.state})`,
      [{ path: "externalServiceRequestId", message: "the order is not waiting for print-ready" }],
    );
  }
  deps.station.setBin(bin.id, "complete", "done", tx.now);
  const lines = deps.requests.lines(row.id);
  const view = viewOf(row, deps);
  const first = lines[0] ? parseJson<Record<string, unknown>>(lines[0].attributesJson) : null;
  tx.notify("pack_information", {
    serviceRequest: { ...view, type: "PACK" },
    externalServiceRequestId: row.externalId,
    packedOn: new Date(tx.now).toISOString(),
    products: packedProducts(deps, row.id),
    packing_box_id: first?.packing_box_id ?? null,
    output_location_id: bin.id,
    olpn: (view.attributes as Record<string, unknown> | null)?.olpn ?? null,
  });
  tx.announce("station", {});
}

/**
 * What went into the box (spec rule 6: pack-end `products`): each item picked, with its identifying
 * attributes as in actuals (`pdfa_values`) and the quantity picked of it, in the order first picked.
 */
function packedProducts(deps: PickDeps, requestId: number) {
  return packedItems(deps, requestId).map(([itemId, quantity]) => ({
    productQuantity: quantity,
    productAttributes: { pdfa_values: pdfaValues(deps, itemId) },
  }));
}

/** The items in the box and how many of each, in the order first picked. */
function packedItems(deps: PickDeps, requestId: number): Array<[number, number]> {
  const byItem = new Map<number, number>();
  for (const a of deps.requests.actuals(requestId)) {
    if (a.state !== "complete" || a.itemId === null) continue;
    byItem.set(a.itemId, (byItem.get(a.itemId) ?? 0) + a.quantity);
  }
  return [...byItem];
}

/** An item as a packer reads it: its `product_sku`, then its other identifying values. */
export function productText(values: Record<string, unknown>): string {
  const { product_sku: sku, ...rest } = values;
  return [sku, ...Object.values(rest)].map(String).join(" ");
}

/** The operator took the bin's contents away: it is free for the next request. */
export function emptyBin(deps: PickDeps, binId: string, tx: Tx): void {
  const bin = deps.station.bin(binId);
  if (!bin)
    throw new AppError("not_found", `no bin '${binId}'`, [{ path: "ppsBinId", message: "unknown bin" }]);
  if (bin.state === "empty") return;
  if (bin.state !== "complete") {
    throw new AppError("invalid_state", `bin '${binId}' holds work in progress (${bin.state})`, [
      {
        path: "ppsBinId",
        message: bin.state === "put" ? "release the tote first" : "its requests are not done",
      },
    ]);
  }
  if (bin.printState === "waiting") {
    throw new AppError("invalid_state", `bin '${binId}' waits for print-ready`, [
      { path: "ppsBinId", message: "the label of this pick+pack bin is not printed yet" },
    ]);
  }
  for (const r of deps.requests.inBin(binId)) deps.requests.update({ ...r, binId: null, updatedOn: tx.now });
  deps.station.setBin(binId, "empty", "none", tx.now);
  tx.announce("station", {});
  assignBins(deps, tx);
}
