/**
 * Revocation at once (docs/security.md#roles): a user removed, given a new password or another role with the
 * command line (another process writing the database) loses their open screen event streams and MQTT
 * connections within a second, without waiting for a request. SQLite's `PRAGMA data_version` tells
 * this connection that another one committed; only then are the watched sessions re-checked
 * (services/auth/live-sessions.ts). Changes the agent makes itself re-check at once (auth-users.ts).
 */
import type { Logger } from "pino";
import type { Part } from "./lifecycle.js";

export const REVOCATION_CHECK_MS = 1000;

export interface RevocationSource {
  dataVersion(): number;
  sweepSessions(): number;
}

export function revocationPart(auth: RevocationSource, log: Logger, everyMs = REVOCATION_CHECK_MS): Part {
  let timer: NodeJS.Timeout | undefined;
  let seen: number | undefined;
  const tick = () => {
    try {
      const version = auth.dataVersion();
      if (version === seen) return;
      seen = version;
      auth.sweepSessions();
    } catch (err) {
      // a locked or failing database: the next tick tries again
      log.warn({ err }, "revocation check failed");
    }
  };
  return {
    name: "revocation watcher",
    start() {
      seen = auth.dataVersion();
      timer = setInterval(tick, everyMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
