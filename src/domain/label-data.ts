/**
 * What the shipping label of a pick+pack order shows (docs/architecture.md#pick-and-pack): read from the
 * order by the pick service, laid out by labels/shipping-label.ts.
 */
export interface LabelData {
  externalServiceRequestId: string;
  olpn: string;
  orderNumber?: string | undefined;
  shippingAddress?: string | undefined;
  carrierLabelUrl?: string | undefined;
  packingBoxId?: string | undefined;
  packingBoxType?: string | undefined;
  /** `<ppsId>/<ppsBinId>`: where the order was packed. */
  station: string;
  /**
   * What went into the box (as the pack-end payload's `products`): the item, e.g. `PK` (its SKU and
   * other identifying values), its stored description when it has one, and how many.
   */
  lines: Array<{ product: string; description?: string | undefined; quantity: number }>;
  printedAt: string;
}
