import type { CatalogRepo } from "../db/catalog.repo.js";
import type { CatalogInput, CatalogOutput } from "../domain/catalog.schema.js";

export function createCatalogService(repo: CatalogRepo, now: () => number) {
  return {
    list: (): CatalogOutput[] => repo.list(),
    upsert: (input: CatalogInput): CatalogOutput => repo.upsert(input, now()),
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
