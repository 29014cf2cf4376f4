/**
 * The station database opened for reading only, for the maintainer's look at a station (`pps-edge
 * status`): no migration, no write, beside a running agent too (WAL readers never block the writer).
 */
import { existsSync } from "node:fs";
import Database from "better-sqlite3";
import type { Sqlite } from "./open.js";

/** The database at `path` for reading, or undefined when there is none. */
export function openReadOnly(path: string, busyTimeoutMs = 5000): Sqlite | undefined {
  if (!existsSync(path)) return undefined;
  const sqlite = new Database(path, { readonly: true, fileMustExist: true, timeout: busyTimeoutMs });
  return sqlite;
}
