import type { CatalogRepo } from "../db/catalog.repo.js";
import type { CatalogInput, CatalogOutput } from "../domain/catalog.schema.js";
import type { UnitOfWork } from "./unit-of-work.js";

export function createCatalogService(repo: CatalogRepo, unitOfWork: UnitOfWork) {
  return {
    list: (): CatalogOutput[] => repo.list(),
    upsert: (input: CatalogInput): CatalogOutput => unitOfWork.run((tx) => repo.upsert(input, tx.now)),
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
