/**
 * The station database as the `user` commands open it: beside a running agent (WAL), and refused when
 * the data folder has none unless `--init` says to create one (a typo in the path must not leave a
 * new, empty station behind). Loaded only when a `user` command runs.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { createAuthRepo } from "../db/auth.repo.js";
import { type DatabaseHandle, DB_FILE, openDatabase } from "../db/open.js";
import { createSecurityEventsRepo } from "../db/security-events.repo.js";
import { createAuthService } from "../services/auth/auth.service.js";
import { createSecurityLog } from "../services/auth/security-log.js";
import type { LoadedConfig } from "./context.js";

export type Auth = ReturnType<typeof createAuthService>;

function whereFrom(origin: string): string {
  return origin === "the default"
    ? "dataDir is the default ./data, under the current folder"
    : `dataDir from ${origin}`;
}

/** Opens the station database for the time `use` runs (also the `security-events` command's). */
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

/** Opens the database for the time `use` runs. */
export async function withAuth(
  loaded: LoadedConfig,
  init: boolean,
  use: (auth: Auth) => Promise<void> | void,
): Promise<void> {
  const { config } = loaded;
  await withDatabase(loaded, init, async (handle) => {
    // user changes are recorded in the station's security event log (docs/security.md#security-event-log)
    const security = createSecurityLog({ repo: createSecurityEventsRepo(handle.sqlite), now: Date.now });
    await use(
      createAuthService(createAuthRepo(handle.db), {
        clientId: config.clientId,
        tokenTtlSeconds: config.tokenTtlSeconds,
        refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
        now: Date.now,
        security: security.record,
      }),
    );
  });
}
