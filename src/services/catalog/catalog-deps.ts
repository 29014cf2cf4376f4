import type { CatalogRepo } from "../../db/catalog.repo.js";
import type { ItemsRepo } from "../../db/items.repo.js";
import type { SearchLimits } from "../../domain/work-limits.js";

/** What the catalog and item use cases read and write. */
export interface CatalogDeps {
  catalog: CatalogRepo;
  items: ItemsRepo;
  /** A search_v2 answer's bounds (config `search`). */
  search: SearchLimits;
}
