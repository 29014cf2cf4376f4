import type { Logger } from "pino";
import type { SecurityEventsRepo } from "../../db/security-events.repo.js";
import {
  boundedText,
  retentionCutoff,
  type SecurityEvent,
  type SecurityEventInput,
  type SecurityEventQuery,
  type SecurityRetention,
  safeDetail,
} from "../../domain/security-event.js";

/**
 * The security event log's door (docs/security.md#security-event-log): logins, failures, lockouts, user
 * changes, token revocations and role refusals are recorded here by the auth use cases, the embedded
 * broker's login and the CLI; admins read them over HTTP and with `pps-edge security-events`.
 *
 * Recording never fails the action it records: a login must not be refused because the disk is full.
 * A failed write is logged once per episode (until a write succeeds again) and the event is lost.
 */

/** How the use cases record an event; synchronous and cheap (one prepared insert). */
export type SecurityRecorder = (event: SecurityEventInput) => void;

/** The same refusal (caller, address, target) again within this is not recorded again. */
export const REFUSAL_REPEAT_MS = 10 * 60_000;
const REFUSAL_KEYS_MAX = 1000;

export const DEFAULT_RETENTION: SecurityRetention = { days: 90, maxRows: 100_000 };

export function createSecurityLog(deps: {
  repo: SecurityEventsRepo;
  now: () => number;
  log?: Logger | undefined;
  retention?: SecurityRetention | undefined;
}) {
  const { repo, now, log } = deps;
  const retention = deps.retention ?? DEFAULT_RETENTION;
  let failing = false;

  const record: SecurityRecorder = (event) => {
    try {
      const detail = safeDetail(event.detail);
      repo.insert({
        at: now(),
        kind: event.kind,
        channel: event.channel,
        username: boundedText(event.username),
        address: boundedText(event.address),
        detail: detail === null ? null : JSON.stringify(detail),
      });
      if (failing) log?.info("security event log written again");
      failing = false;
    } catch (err) {
      if (!failing)
        log?.error(
          { err, kind: event.kind },
          "security event log: write failed; not logged again until a write succeeds",
        );
      failing = true;
    }
  };

  // refusals nobody throttles: a misconfigured client retrying forever, a flood of anonymous connects
  const lastRefusal = new Map<string, number>();
  const refused: SecurityRecorder = (event) => {
    const key = JSON.stringify([event.kind, event.channel, event.username, event.address, event.detail]);
    const t = now();
    const last = lastRefusal.get(key);
    if (last !== undefined && t - last < REFUSAL_REPEAT_MS) return;
    if (lastRefusal.size >= REFUSAL_KEYS_MAX) lastRefusal.clear();
    lastRefusal.set(key, t);
    record(event);
  };

  return {
    record,
    /**
     * Records a refusal (a `role_refused` event from domain/security-event.ts `roleRefusedEvent`, a
     * broker connect refused before any password check) once every REFUSAL_REPEAT_MS for the same
     * event: a client retrying a forbidden call cannot crowd out the other events.
     */
    refused,
    /** Newest first (GET /station/security-events, `pps-edge security-events`). */
    list: (query: SecurityEventQuery): SecurityEvent[] => repo.list(query),
    /** Drops events past retention (the background pruning); the number dropped. */
    prune: (): number => repo.prune(retentionCutoff(now(), retention.days), retention.maxRows),
  };
}

export type SecurityLog = ReturnType<typeof createSecurityLog>;
