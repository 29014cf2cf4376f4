import type { Hono } from "hono";
import { z } from "zod";
import { catalogInputSchema, catalogOutputSchema } from "../../domain/catalog.schema.js";
import { itemInputSchema, searchInputSchema } from "../../domain/item.schema.js";
import { rolesFor } from "../../domain/permissions.js";
import type { CatalogService, ItemsService } from "../../services/catalog/catalog.service.js";
import { readJson } from "../body.js";
import type { AppEnv } from "../context.js";
import { jsonArrayStream } from "../json-array-stream.js";
import type { RouteRegistry } from "../openapi.js";
import { route } from "../route.js";
import { CATALOG_EXAMPLE, ITEM_EXAMPLE, SEARCH_EXAMPLE } from "./request-examples.js";

export const MDM_PREFIX = "/api-gateway/mdm-service/wms-masterdata";

const itemView = z.looseObject({
  id: z.number().int(),
  productAttributes: z.record(z.string(), z.unknown()),
});

/** Catalog and items (spec: Endpoints, Catalog and Items). */
export function masterdataRoutes(catalog: CatalogService, items: ItemsService) {
  return (app: Hono<AppEnv>, registry: RouteRegistry) => {
    route(
      app,
      registry,
      {
        method: "get",
        path: `${MDM_PREFIX}/catalog`,
        tag: "catalog",
        summary: "List catalogs",
        auth: true,
        roles: rolesFor("read_catalog"),
        responses: {
          200: { description: "all catalogs with ids", schema: z.array(catalogOutputSchema) },
          401: { description: "unauthorized" },
        },
      },
      (c) => c.json(catalog.list()),
    );

    route(
      app,
      registry,
      {
        method: "post",
        path: `${MDM_PREFIX}/catalog`,
        tag: "catalog",
        summary: "Create or update a catalog by clientCatalogId",
        auth: true,
        storesBody: true,
        roles: rolesFor("upsert_catalog"),
        body: catalogInputSchema,
        examples: { catalog: CATALOG_EXAMPLE },
        responses: {
          200: { description: "the created or modified catalog", schema: catalogOutputSchema },
          400: { description: "bad data; `errors` names the field" },
          401: { description: "unauthorized" },
        },
      },
      async (c) => c.json(catalog.upsert(await readJson(c, catalogInputSchema))),
    );

    route(
      app,
      registry,
      {
        method: "post",
        path: `${MDM_PREFIX}/item`,
        tag: "items",
        summary: "Create or update an item, identified by its schema's unique attribute groups",
        auth: true,
        storesBody: true,
        roles: rolesFor("upsert_item"),
        body: itemInputSchema,
        examples: { item: ITEM_EXAMPLE },
        responses: {
          200: { description: "the created or modified item, in the search shape", schema: itemView },
          400: {
            description:
              "bad data; `errors` names the field. `schema_missing`: no schema, neither own nor the category's",
            codes: ["validation_failed", "schema_missing"],
          },
          401: { description: "unauthorized" },
          409: {
            description: "a barcode is held by another item, or the unique groups match several items",
            codes: ["barcode_conflict", "identity_conflict"],
          },
        },
      },
      async (c) => c.json(await items.upsertAsync(await readJson(c, itemInputSchema))),
    );

    route(
      app,
      registry,
      {
        method: "post",
        path: `${MDM_PREFIX}/item/search_v2`,
        tag: "items",
        summary: "Search items by unique attributes (operator '=' only)",
        auth: true,
        roles: rolesFor("search_items"),
        costly: true,
        body: searchInputSchema,
        examples: { search: SEARCH_EXAMPLE },
        responses: {
          200: { description: "matching items; [] when none", schema: z.array(itemView) },
          400: {
            description:
              "unknown key or operator, bad data, or more matches than one answer holds (refine the search)",
            codes: ["validation_failed", "unknown_search_key", "unsupported_operator", "search_too_broad"],
          },
          401: { description: "unauthorized" },
        },
      },
      async (c) => {
        const answer = await items.search(await readJson(c, searchInputSchema));
        // sent in chunks as the client takes them, without a length: an item changed or deleted after
        // the answer was measured is sent as it is at its turn (docs/decisions.md, search answers)
        return c.body(jsonArrayStream(answer.items), 200, { "Content-Type": "application/json" });
      },
    );
  };
}
