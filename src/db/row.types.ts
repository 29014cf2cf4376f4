import type { Table } from "drizzle-orm";

/**
 * Row types are derived from the drizzle schema (schema/*.schema.ts), never written a second time by
 * hand, so that renaming, dropping or retyping a column breaks the build wherever its rows are read.
 *
 * Repositories on the hot path keep raw prepared better-sqlite3 statements (no query builder per call)
 * whose column aliases are the schema's property names; their rows are `SqlRow` of the table, or a
 * `Pick` of it. A row read through drizzle's query builder is `typeof table.$inferSelect` as it is.
 */

/**
 * A row as a raw better-sqlite3 statement returns it: drizzle stores `{ mode: "boolean" }` columns as
 * 0/1 integers and maps them to booleans only when it reads them itself, so here they stay numbers.
 */
export type SqlRow<T extends Table> = { [K in keyof T["$inferSelect"]]: Stored<T["$inferSelect"][K]> };

/** Distributes over unions: `boolean | null` is stored as `number | null`. */
type Stored<V> = V extends boolean ? number : V;
