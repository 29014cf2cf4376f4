import type { CatalogRepo } from "../../db/catalog.repo.js";
import type { ItemsRepo } from "../../db/items.repo.js";
import type { ItemInput, ItemSchema } from "../../domain/item.schema.js";
import type { StoredItem } from "../../domain/item.view.js";
import type { SearchLimits } from "../../domain/work-limits.js";

/** What the catalog and item use cases read and write. */
export interface CatalogDeps {
  catalog: CatalogRepo;
  items: ItemsRepo;
  /** A search_v2 answer's bounds (config `search`). */
  search: SearchLimits;
}

/** An item as stored, its JSON read back. */
export function loadItem({ items }: CatalogDeps, id: number): StoredItem | undefined {
  const row = items.get(id);
  if (!row) return undefined;
  return {
    id: row.id,
    clientItemId: row.clientItemId,
    schema: JSON.parse(row.schemaJson) as ItemSchema,
    doc: JSON.parse(row.doc) as ItemInput,
    barcodes: items.barcodesOf(id),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
