/**
 * The station database opened for reading only, for the maintainer's look at a station (`pps-edge
 * status`): no migration and no write, beside a running agent too (WAL: readers never block the writer).
 */
import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import type { DatabaseHandle, Db } from "./open.js";
import * as schema from "./tables.js";

/** The database at `path` for reading, or undefined when there is none. */
export function openReadOnly(path: string, busyTimeoutMs = 5000): DatabaseHandle | undefined {
  if (!existsSync(path)) return undefined;
  const sqlite = new Database(path, { readonly: true, fileMustExist: true, timeout: busyTimeoutMs });
  return { sqlite, db: drizzle(sqlite, { schema }) as Db, close: () => sqlite.close() };
}
