/**
 * The catalog aggregate's door (spec: Endpoints, Catalog and Items): catalogs, and items identified by
 * their schema's unique attribute groups. Use cases are functions of their dependencies, input and
 * (for changes) the caller's transaction; the two objects below bind them, each change one transaction.
 * Callers import this module only.
 */
import type { CatalogInput, CatalogOutput } from "../../domain/catalog.schema.js";
import type { ItemInput, SearchInput } from "../../domain/item.schema.js";
import { itemView } from "../../domain/item.view.js";
import type { Tx, UnitOfWork } from "../unit-of-work/unit-of-work.js";
import type { CatalogDeps } from "./catalog-deps.js";
import { searchItems } from "./item-search.js";
import { upsertItem } from "./item-upsert.js";

export type { CatalogDeps } from "./catalog-deps.js";
export { type ItemsAnswer, searchItems } from "./item-search.js";
export { upsertItem } from "./item-upsert.js";

export const listCatalogs = (deps: CatalogDeps): CatalogOutput[] => deps.catalog.list();

/** Create or update a catalog by clientCatalogId (spec: Catalog "create or update"). */
export function upsertCatalog(deps: CatalogDeps, input: CatalogInput, tx: Tx): CatalogOutput {
  return deps.catalog.upsert(input, tx.now);
}

export function createCatalogService(deps: CatalogDeps, uow: UnitOfWork) {
  return {
    list: () => listCatalogs(deps),
    upsert: (input: CatalogInput) => uow.run((tx) => upsertCatalog(deps, input, tx)),
  };
}

export function createItemsService(deps: CatalogDeps, uow: UnitOfWork) {
  return {
    upsert: (input: ItemInput): Record<string, unknown> =>
      itemView(uow.run((tx) => upsertItem(deps, input, tx))),
    /** For HTTP: committed with the other changes of this event-loop turn (one fsync for them all). */
    async upsertAsync(input: ItemInput): Promise<Record<string, unknown>> {
      return itemView(await uow.runAsync((tx) => upsertItem(deps, input, tx)));
    },
    search: (input: SearchInput) => searchItems(deps, input),
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
export type ItemsService = ReturnType<typeof createItemsService>;
