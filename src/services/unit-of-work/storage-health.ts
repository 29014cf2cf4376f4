import type { Logger } from "pino";
import type { Metrics } from "../../metrics.js";
import { isBusy } from "./storage-failure.js";

/**
 * The database's health as the writes find it: the owner of a storage failure episode. A full disk or an
 * I/O error refuses every write until space is freed or the disk recovers, so the first failed write
 * opens an episode (logged once, with SQLite's code), `/readyz` reports the station unready meanwhile
 * (a load balancer or the central system's monitoring sees it at once), and the next write that commits
 * ends it (logged once as recovered). A database locked by another process past busy_timeout is no
 * episode: the lock is someone else's transaction, gone once it ends.
 */
export interface StorageHealth {
  /** A write failed with this SQLite code (`SQLITE_FULL`, `SQLITE_IOERR_…`). */
  failed(code: string, err: unknown): void;
  /** A write committed: an open episode ends. */
  committed(): void;
  /** The `/readyz` check: ok, or the code and since when writes fail. */
  check(): { ok: boolean; detail?: string };
}

export interface StorageHealthDeps {
  log: Logger;
  now: () => number;
  metrics?: Metrics;
}

export function createStorageHealth({ log, now, metrics }: StorageHealthDeps): StorageHealth {
  let episode: { code: string; since: number; failures: number } | undefined;
  const failures = metrics?.counter(
    "db_storage_failures_total",
    "Writes the database refused (SQLite code: SQLITE_FULL, SQLITE_IOERR…); nothing of them was changed",
    ["code"],
  );
  metrics?.gauge(
    "db_storage_healthy",
    "1 while writes commit; 0 from a full disk or an I/O error until the next write commits",
    [],
    () => [{ labels: {}, value: episode ? 0 : 1 }],
  );
  return {
    failed(code, err) {
      failures?.inc({ code });
      if (isBusy({ code })) {
        log.warn({ err, code }, "database locked by another process for too long; the change is refused");
        return;
      }
      if (episode) {
        episode.failures++;
        return;
      }
      episode = { code, since: now(), failures: 1 };
      const why = code === "SQLITE_FULL" ? "the disk is full" : "the disk refused the write";
      log.error(
        { err, code },
        `database writes fail (${why}); changes are refused with 503 and /readyz is unready until a write succeeds`,
      );
    },
    committed() {
      if (!episode) return;
      const { code, since, failures: refused } = episode;
      episode = undefined;
      log.info({ code, refused, seconds: (now() - since) / 1000 }, "database writes succeed again");
    },
    check() {
      if (!episode) return { ok: true };
      const since = new Date(episode.since).toISOString();
      return { ok: false, detail: `writes fail with ${episode.code} since ${since}` };
    },
  };
}
