import type { Logger } from "pino";
import type { MqttRepo } from "../db/mqtt.repo.js";
import type { OutboxRepo } from "../db/outbox.repo.js";
import { bytesNearFull } from "../domain/outbox-fill.js";

export interface OutboxHealth {
  undelivered: number;
  /** Age of the oldest undelivered notification, seconds (0 when none). */
  oldestAgeSeconds: number;
  dead: number;
  ok: boolean;
}

export interface OutboxMonitorDeps {
  outbox: OutboxRepo;
  mqtt: MqttRepo;
  warnDepth: number;
  warnAgeSeconds: number;
  /** The hard bound (outbox.maxUndelivered): changes are refused from there on. */
  limit: number;
  pruneDeliveredAfterHours: number;
  inboxRetentionHours: number;
  /** The unit of work's estimate of the backlog, corrected with the real count. */
  setUndelivered(n: number): void;
  /**
   * The unit of work's upper bound of the waiting bytes and `outbox.maxUndeliveredBytes`: counted again
   * only while near the bound (domain/outbox-fill.ts), so the screen's notice goes when the bytes do.
   */
  bytes?: { estimate(): number; set(n: number): void; limit: number | undefined };
  /** The publisher is sending a backlog: bookkeeping waits. */
  draining(): boolean;
  now(): number;
  log: Logger;
}

const CHECK_MS = 10_000;
const PRUNE_MS = 3_600_000;
/** While above a threshold, the warning is repeated this often. */
const REPEAT_WARNING_MS = 300_000;
/**
 * `delivered_at` is filled in behind the delivery cursor (outbox.repo.ts) BACKFILL_ROWS rows at a time
 * (about a millisecond), yielding to the event loop between chunks so that a scan still lights its bin
 * at once. While a backlog drains, one chunk per BACKFILL_EVERY_MS: delivery first, bookkeeping after.
 */
const BACKFILL_ROWS = 200;
const BACKFILL_EVERY_MS = 250;

/**
 * Watches the outbox so that /readyz, /metrics and the log say it is filling long before its bound
 * refuses changes (docs/architecture.md#durability-and-limits; docs/mqtt.md#observability), records `delivered_at` behind the
 * publisher's delivery cursor, and prunes what was delivered or answered long enough ago. Undelivered
 * notifications are never pruned or expired.
 */
export function createOutboxMonitor(deps: OutboxMonitorDeps) {
  let checkTimer: NodeJS.Timeout | undefined;
  let pruneTimer: NodeJS.Timeout | undefined;
  let warnedAt: number | undefined;
  let backfillTimer: NodeJS.Timeout | undefined;
  let backfillNext = false;

  function health(): OutboxHealth {
    const undelivered = deps.outbox.undeliveredCount();
    const oldest = deps.outbox.oldestUndelivered();
    const oldestAgeSeconds = oldest ? Math.max(0, Math.round((deps.now() - oldest.createdAt) / 1000)) : 0;
    const ok = undelivered < deps.warnDepth && oldestAgeSeconds < deps.warnAgeSeconds;
    return { undelivered, oldestAgeSeconds, dead: deps.outbox.deadCount(), ok };
  }

  function check(): OutboxHealth {
    const h = health();
    deps.setUndelivered(h.undelivered);
    const b = deps.bytes;
    if (b?.limit !== undefined && h.undelivered > 0 && bytesNearFull(b.estimate(), b.limit))
      b.set(deps.outbox.undeliveredBytes());
    const now = deps.now();
    if (!h.ok && (warnedAt === undefined || now - warnedAt >= REPEAT_WARNING_MS)) {
      warnedAt = now;
      deps.log.warn(
        { undelivered: h.undelivered, oldestAgeSeconds: h.oldestAgeSeconds, limit: deps.limit },
        "outbox: notifications are waiting for the broker; changes are refused when the limit is reached",
      );
    } else if (h.ok && warnedAt !== undefined) {
      warnedAt = undefined;
      deps.log.info({ undelivered: h.undelivered }, "outbox: back under the warning thresholds");
    }
    return h;
  }

  function prune(): void {
    const now = deps.now();
    const outbox = deps.outbox.prune(now - deps.pruneDeliveredAfterHours * 3_600_000);
    const inbox = deps.mqtt.inboxPrune(now - deps.inboxRetentionHours * 3_600_000);
    if (outbox || inbox)
      deps.log.info({ outbox, inbox }, "pruned delivered notifications and answered requests");
  }

  function backfill(): void {
    backfillNext = false;
    if (!backfillTimer) return; // stopped: the database may be closing
    try {
      if (deps.outbox.backfill(deps.now(), BACKFILL_ROWS) === BACKFILL_ROWS && !deps.draining()) {
        backfillNext = true;
        setImmediate(backfill);
      }
    } catch (err) {
      deps.log.error({ err }, "outbox monitor: could not record delivered notifications");
    }
  }

  function safely(fn: () => unknown, what: string): () => void {
    return () => {
      try {
        fn();
      } catch (err) {
        deps.log.error({ err }, `outbox monitor: ${what} failed`);
      }
    };
  }

  return {
    health,
    check,
    prune,
    start(): void {
      safely(check, "check")();
      safely(prune, "prune")();
      checkTimer = setInterval(safely(check, "check"), CHECK_MS);
      pruneTimer = setInterval(safely(prune, "prune"), PRUNE_MS);
      backfillTimer = setInterval(() => {
        if (!backfillNext) backfill();
      }, BACKFILL_EVERY_MS);
      checkTimer.unref();
      pruneTimer.unref();
      backfillTimer.unref();
    },
    stop(): void {
      if (checkTimer) clearInterval(checkTimer);
      if (pruneTimer) clearInterval(pruneTimer);
      if (backfillTimer) clearInterval(backfillTimer);
      checkTimer = pruneTimer = backfillTimer = undefined;
    },
  };
}

export type OutboxMonitor = ReturnType<typeof createOutboxMonitor>;
