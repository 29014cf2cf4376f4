import { uniqueKeysOf } from "./item.identity.js";
import type { ItemInput, ItemSchema } from "./item.schema.js";
import { type DimensionUnit, uomObject, type WeightUnit } from "./uom.js";

export interface StoredItem {
  id: number;
  clientItemId: string | null;
  schema: ItemSchema;
  doc: ItemInput;
  barcodes: Array<{ id: number; barcode: string; levelPath: string | null }>;
  createdAt: number;
  updatedAt: number;
}

/**
 * The item as search_v2 returns it (docs/interface.md: "Item as returned by search adds or changes"). The create
 * response uses the same shape so a client learns the assigned ids at once. `attributes.id` is the
 * item's id: each item has exactly one attributes record.
 */
export function itemView(item: StoredItem): Record<string, unknown> {
  const { doc } = item;
  const attrs = doc.attributes;
  const weight = attrs.weight;
  const dim = attrs.dimension;
  return {
    id: item.id,
    clientItemId: item.clientItemId,
    clientCategoryId: doc.clientCategoryId ?? null,
    uom: null,
    serialised: false,
    displayKeyList: uniqueKeysOf(item.schema),
    schema: item.schema,
    attributes: {
      ...attrs,
      id: item.id,
      weight: { ...weight, value: weight.value, uom: uomObject(weight.uom.unit as WeightUnit) },
      dimension: { ...dim, uom: uomObject(dim.uom.unit as DimensionUnit) },
      volume: null,
      status: null,
    },
    productAttributes: doc.productAttributes,
    jsonProductAttributes: doc.productAttributes,
    jsonSchema: item.schema,
    barcodeList: item.barcodes
      .filter((b) => b.levelPath === null)
      .map((b) => ({ id: b.id, barcode: b.barcode })),
    description: doc.description ?? null,
    imageUrl: doc.imageUrl ?? null,
    imageData: doc.imageData ?? null,
    itemConfig: doc.itemConfig ?? null,
    createdOn: new Date(item.createdAt).toISOString(),
    updatedOn: new Date(item.updatedAt).toISOString(),
  };
}
