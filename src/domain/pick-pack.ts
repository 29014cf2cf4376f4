/**
 * Which pick is a pick+pack. The spec names the pack attributes of a pick line ("Pick+pack: a pick
 * request whose pick lines carry `attributes`: shipping_address, carrier_label_url, packing_box_id,
 * packing_box_type, order_number") and leaves which requests go to packing to the system's
 * configuration. Many WMSs send `order_number` (and an address) on every line, so by default only the
 * attributes that need a box or a label make a pick+pack (docs/decisions.md "Pick+pack rule").
 */
import type { PACK_ATTRIBUTES } from "./service-request.schema.js";

export type PackAttribute = (typeof PACK_ATTRIBUTES)[number];

/** The default rule: a line with one of these makes its request a pick+pack (config `pick.packAttributes`). */
export const DEFAULT_PACK_MARKERS: readonly PackAttribute[] = [
  "packing_box_id",
  "packing_box_type",
  "carrier_label_url",
];

/** Whether any line carries one of `markers` (a null attribute counts as absent). */
export function isPickPack(
  lines: ReadonlyArray<{ attributes?: Record<string, unknown> | null }>,
  markers: readonly PackAttribute[],
): boolean {
  return lines.some((l) =>
    markers.some((k) => l.attributes?.[k] !== undefined && l.attributes?.[k] !== null),
  );
}
