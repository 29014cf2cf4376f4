import { asc, eq, inArray } from "drizzle-orm";
import type { CatalogInput, CatalogOutput, PdeaDataType } from "../domain/catalog.schema.js";
import type { Db } from "./open.js";
import { catalogs, pdeas } from "./tables.js";

export function createCatalogRepo(db: Db) {
  function read(catalogId: number): CatalogOutput | undefined {
    const c = db.select().from(catalogs).where(eq(catalogs.id, catalogId)).get();
    if (!c) return undefined;
    const list = db.select().from(pdeas).where(eq(pdeas.catalogId, c.id)).orderBy(asc(pdeas.position)).all();
    return {
      id: c.id,
      clientCatalogId: c.clientCatalogId,
      description: c.description,
      exhaustive_pdea_list: list.map((p) => ({
        id: p.id,
        field_name: p.fieldName,
        field_data_type: p.fieldDataType as PdeaDataType,
        display_data: JSON.parse(p.displayData),
      })),
    };
  }

  return {
    list(): CatalogOutput[] {
      const ids = db.select({ id: catalogs.id }).from(catalogs).orderBy(asc(catalogs.id)).all();
      return ids.map((r) => read(r.id)).filter((c): c is CatalogOutput => c !== undefined);
    },

    /**
     * Create or update by clientCatalogId (spec: Catalog "create or update"). A PDEA keeps its id while
     * its field_name stays in the list, so clients can hold on to ids across updates. Several
     * statements: the caller runs them in one transaction (services/unit-of-work/unit-of-work.ts).
     */
    upsert(input: CatalogInput, now: number): CatalogOutput {
      const existing = db
        .select()
        .from(catalogs)
        .where(eq(catalogs.clientCatalogId, input.clientCatalogId))
        .get();
      let catalogId: number;
      if (existing) {
        catalogId = existing.id;
        db.update(catalogs)
          .set({ description: input.description ?? null, updatedAt: now })
          .where(eq(catalogs.id, catalogId))
          .run();
      } else {
        catalogId = db
          .insert(catalogs)
          .values({
            clientCatalogId: input.clientCatalogId,
            description: input.description ?? null,
            createdAt: now,
            updatedAt: now,
          })
          .returning({ id: catalogs.id })
          .get().id;
      }
      const old = new Map(
        db
          .select({ id: pdeas.id, fieldName: pdeas.fieldName })
          .from(pdeas)
          .where(eq(pdeas.catalogId, catalogId))
          .all()
          .map((p) => [p.fieldName, p.id]),
      );
      const keep = new Set(input.exhaustive_pdea_list.map((p) => p.field_name));
      const gone = [...old].filter(([name]) => !keep.has(name)).map(([, id]) => id);
      if (gone.length) db.delete(pdeas).where(inArray(pdeas.id, gone)).run();
      input.exhaustive_pdea_list.forEach((p, position) => {
        const values = {
          catalogId,
          position,
          fieldName: p.field_name,
          fieldDataType: p.field_data_type,
          displayData: JSON.stringify(p.display_data),
        };
        const id = old.get(p.field_name);
        if (id !== undefined) db.update(pdeas).set(values).where(eq(pdeas.id, id)).run();
        else db.insert(pdeas).values(values).run();
      });
      return read(catalogId) as CatalogOutput;
    },

    /** Declared types of the named attributes across all catalogs (a name may be declared by several). */
    typesOf(fieldNames: string[]): Map<string, Set<PdeaDataType>> {
      const out = new Map<string, Set<PdeaDataType>>();
      if (!fieldNames.length) return out;
      const rows = db
        .select({ fieldName: pdeas.fieldName, type: pdeas.fieldDataType })
        .from(pdeas)
        .where(inArray(pdeas.fieldName, fieldNames))
        .all();
      for (const r of rows) {
        const set = out.get(r.fieldName) ?? new Set<PdeaDataType>();
        set.add(r.type as PdeaDataType);
        out.set(r.fieldName, set);
      }
      return out;
    },
  };
}

export type CatalogRepo = ReturnType<typeof createCatalogRepo>;
