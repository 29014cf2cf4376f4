/** Builders for spec-shaped bodies, so each test states only what it is about. */
export function itemBody(sku: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    schema: { unique: [["product_sku"]], type: "object" },
    clientCategoryId: "shirts",
    attributes: {
      weight: { value: 250, uom: { unit: "G" } },
      dimension: { length: 30, width: 20, height: 2, uom: { unit: "CM" } },
    },
    productAttributes: { product_sku: sku, fragile: false },
    barcodeList: [{ barcode: `BC-${sku}` }],
    description: `item ${sku}`,
    ...over,
  };
}

export function level(label: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    label,
    type: "marked",
    qty: 1,
    attributes: {
      weight: 100,
      length: 40,
      width: 30,
      height: 20,
      DimensionUOM: "CM",
      WeightUOM: "G",
      PkgUOM: label,
    },
    ...over,
  };
}
