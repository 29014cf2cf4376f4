/**
 * The station database as the commands that change it open it (`user`, `outbox`, `security-events`):
 * beside a running agent (WAL), and refused when the data folder has none unless `--init` says to
 * create one (a typo in the path must not leave a new, empty station behind). Loaded only when such a
 * command runs.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { type DatabaseHandle, DB_FILE, openDatabase } from "../../db/open.js";
import type { LoadedConfig } from "./context.js";

function whereFrom(origin: string): string {
  return origin === "the default"
    ? "dataDir is the default ./data, under the current folder"
    : `dataDir from ${origin}`;
}

/** Opens the station database for the time `use` runs. */
export async function withDatabase(
  { config, origin }: LoadedConfig,
  init: boolean,
  use: (handle: DatabaseHandle) => Promise<void> | void,
): Promise<void> {
  const path = join(resolve(config.dataDir), DB_FILE);
  if (!init && !existsSync(path)) {
    throw new Error(`no database at ${path} (${whereFrom(origin("dataDir"))}); pass --init to create one`);
  }
  const handle = openDatabase(path, {
    synchronous: config.db.synchronous,
    busyTimeoutMs: config.db.busyTimeoutMs,
  });
  try {
    await use(handle);
  } finally {
    handle.close();
  }
}
