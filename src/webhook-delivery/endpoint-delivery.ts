/**
 * One endpoint's delivery loop (docs/webhooks.md#order-and-retries): its notifications in seq order, one
 * in flight, each tried until answered 2xx or the endpoint is disabled, on its own cursor, so a slow or
 * dead endpoint holds up neither MQTT nor another endpoint. What to do after each attempt is decided by
 * the pure core (domain/webhook-delivery.ts); this file only reads rows, waits and records.
 *
 * The cursor is written at most every MARK_EVERY_MS while deliveries stream in (one fsync each), and at
 * once when caught up, failing or stopping: after a crash an endpoint can get the last few again (the
 * same `webhook-id`, for the receiver to dedupe), never miss one.
 */
import type { Logger } from "pino";
import type { OutboxRepo, WebhookRow as OutboxWebhookRow } from "../db/outbox.repo.js";
import type { WebhookRow, WebhooksRepo } from "../db/webhooks.repo.js";
import { splitNotification } from "../domain/notification-parts.js";
import {
  type Decision,
  decide,
  type HeadState,
  type Outcome,
  type RetryPolicy,
} from "../domain/webhook-delivery.js";
import type { Delivery, Sender } from "./sender.js";

export interface EndpointDeliveryDeps {
  id: string;
  repo: Pick<WebhooksRepo, "get" | "advance" | "advanceReplay" | "recordAttempt" | "disable">;
  outbox: Pick<OutboxRepo, "forWebhook" | "lastSeq">;
  sender: Pick<Sender, "attempt" | "abort">;
  policy: RetryPolicy;
  /**
   * The largest body the endpoint takes (`webhooks.maxBodyBytes`); 0: any. A larger notification is
   * POSTed in parts, each delivered in turn (docs/webhooks.md#body-size).
   */
  maxBodyBytes?: number;
  now(): number;
  random?: () => number;
  log: Logger;
  /** A notification answered 2xx, `ms` after its commit. */
  onDelivered(row: OutboxWebhookRow, ms: number): void;
  /** An attempt failed (`reason`: the HTTP status, `timeout`, `network` or `refused`), to be retried or not. */
  onFailed(reason: string, retry: boolean): void;
  /** The endpoint was disabled: 410 or the horizon. */
  onDisabled(reason: "gone" | "horizon", row: OutboxWebhookRow, outcome: Outcome): void;
}

const BATCH = 64;
const MARK_EVERY_MS = 100;
/** After an unexpected error (the database refused a write) the loop starts again after this. */
const RESTART_MS = 1000;
/** The retry state is written at most this often while attempts fail. */
const RECORD_EVERY_MS = 1000;

/** Where the loop reads: normal delivery after the cursor, or a replay. */
interface Position {
  after: number;
  /** Inclusive; for a replay its `to`. */
  upTo: () => number;
  replayTo: number | null;
}

function outcomeText(o: Outcome): { status: number | null; error: string | null; reason: string } {
  if (o.kind === "answered") return { status: o.status, error: null, reason: String(o.status) };
  if (o.kind === "timeout") return { status: null, error: "timeout", reason: "timeout" };
  return { status: null, error: o.error, reason: o.kind };
}

/** The log line of a failed attempt that will be tried again (never the secret or the signature). */
function warnRetry(
  log: Logger,
  id: string,
  row: OutboxWebhookRow,
  text: ReturnType<typeof outcomeText>,
  d: Extract<Decision, { kind: "retry" }>,
): void {
  const { status, error } = text;
  const { seq, notificationId } = row;
  const at = {
    endpoint: id,
    seq,
    notificationId,
    status,
    error,
    attempts: d.head.attempts,
    retryInMs: d.delayMs,
  };
  log.warn(at, "webhook: attempt failed; retrying");
}

/** Where to read next: a replay under way, or after the cursor up to the last notification committed. */
function positionOf(row: WebhookRow, outbox: Pick<OutboxRepo, "lastSeq">): Position {
  if (row.replayNext !== null && row.replayTo !== null) {
    const to = row.replayTo;
    return { after: row.replayNext - 1, upTo: () => to, replayTo: to };
  }
  return { after: row.deliveredSeq, upTo: () => outbox.lastSeq(), replayTo: null };
}

/** The loop's waits: idle until new notifications (or a stop), or a retry's delay (only a stop ends it early). */
function createWaiter() {
  /** New notifications were committed while it was not waiting for them. */
  let woken = false;
  let wait: { end: () => void; idle: boolean } | undefined;
  return {
    pause(stopped: boolean, ms?: number): Promise<void> {
      if (stopped || (ms === undefined && woken)) {
        woken = false;
        return Promise.resolve();
      }
      return new Promise<void>((ok) => {
        const timer = ms === undefined ? undefined : setTimeout(() => end(), ms);
        const end = () => {
          if (timer) clearTimeout(timer);
          wait = undefined;
          woken = false;
          ok();
        };
        wait = { end, idle: ms === undefined };
      });
    },
    wake(): void {
      woken = true;
      if (wait?.idle) wait.end();
    },
    end(): void {
      wait?.end();
    },
  };
}

/** The durable cursor behind the loop: written at most every MARK_EVERY_MS, or at once when forced. */
function createMarker(
  deps: Pick<EndpointDeliveryDeps, "id" | "repo" | "now">,
  /** The last answer, and whether the notification after the cursor has failed already. */
  head: () => { status: number | null; failing: boolean },
) {
  let pending: { seq: number; replayTo: number | null } | undefined;
  let markedAt = 0;
  return {
    /** Delivered (or passed over) up to `seq`, in normal delivery or in the replay ending at `replayTo`. */
    set(seq: number, replayTo: number | null): void {
      pending = { seq, replayTo };
    },
    mark(force: boolean): void {
      if (!pending) return;
      const now = deps.now();
      if (!force && now - markedAt < MARK_EVERY_MS) return;
      const p = pending;
      const m = { seq: p.seq, at: now, ...head() };
      if (p.replayTo === null) deps.repo.advance(deps.id, m);
      else deps.repo.advanceReplay(deps.id, m, p.replayTo);
      pending = undefined;
      markedAt = now;
    },
  };
}

/**
 * What one notification is sent as: itself, or its parts when it is larger than the endpoint's body
 * limit (docs/webhooks.md#body-size). The cursor passes it only when every part was answered 2xx; after
 * a stop or a crash between parts, the whole set goes again (the same `webhook-id` each).
 */
function requestsOf(row: OutboxWebhookRow, max: number): Delivery[] {
  if (max <= 0 || row.payload.length <= max) return [row];
  const parts = splitNotification(row.payload, row.notificationId, max);
  // a limit under one part's header cannot be met: the notification goes whole, for the receiver to refuse
  if (parts.length === 0) return [row];
  return parts.map((payload, i) => ({
    notificationId: `${row.notificationId}/${i}`,
    payload,
    part: `${i}/${parts.length}`,
  }));
}

export function createEndpointDelivery(deps: EndpointDeliveryDeps) {
  const { id, repo, outbox } = deps;
  let stopped = false;
  const waiter = createWaiter();
  const marker = createMarker(deps, () => ({ status: lastStatus, failing }));
  const mark = (force: boolean) => marker.mark(force);
  const pause = (ms?: number) => waiter.pause(stopped, ms);
  let position: Position | undefined;
  let running: Promise<void> | undefined;
  /** The status of the last answer, for /metrics (the database has it from failures on). */
  let lastStatus: number | null = null;
  /** The notification being sent has failed before and its retry state is in the database, kept by marks. */
  let failing = false;
  let recordedAt = Number.NEGATIVE_INFINITY;

  function failed(
    row: OutboxWebhookRow,
    outcome: Outcome,
    d: Exclude<Decision, { kind: "delivered" }>,
    now: number,
  ): void {
    const text = outcomeText(outcome);
    lastStatus = text.status;
    // one write a second at most while an endpoint fails fast (each is an fsync); a crash before the
    // first can only start the horizon a moment later
    if (d.kind === "disable" || now - recordedAt >= RECORD_EVERY_MS) {
      repo.recordAttempt(id, {
        attempts: d.head.attempts,
        failingSince: d.head.failingSince,
        lastStatus: text.status,
        lastError: text.error,
        at: now,
      });
      recordedAt = now;
      failing = true;
    }
    deps.onFailed(text.reason, d.kind === "retry");
    if (d.kind === "disable") {
      repo.disable(id, d.reason, now);
      deps.onDisabled(d.reason, row, outcome);
      return;
    }
    warnRetry(deps.log, id, row, text, d);
  }

  /** Tries one request until answered 2xx (true), or the endpoint is disabled or stopping (false). */
  async function deliver(row: OutboxWebhookRow, request: Delivery, head: HeadState): Promise<boolean> {
    let h = head;
    for (;;) {
      if (stopped) return false;
      const outcome = await deps.sender.attempt(request);
      if (stopped) return false;
      const now = deps.now();
      const d = decide(h, outcome, now, deps.policy, deps.random);
      if (d.kind === "delivered") {
        deps.onDelivered(row, now - row.createdAt);
        // the retry state is cleared by the next cursor write (throttled like every delivery)
        lastStatus = outcome.kind === "answered" ? outcome.status : null;
        failing = false;
        return true;
      }
      failed(row, outcome, d, now);
      if (d.kind === "disable") return false;
      h = d.head;
      await pause(d.delayMs);
    }
  }

  /** Sends one batch; false when the endpoint is disabled or stopping. */
  async function sendBatch(pos: Position, batch: OutboxWebhookRow[], first: HeadState): Promise<boolean> {
    let head = first;
    for (const r of batch) {
      for (const request of requestsOf(r, deps.maxBodyBytes ?? 0)) {
        if (!(await deliver(r, request, head))) return false;
        head = { attempts: 0, failingSince: null };
      }
      pos.after = r.seq;
      marker.set(r.seq, pos.replayTo);
      mark(false);
    }
    return true;
  }

  async function loop(): Promise<void> {
    let row = repo.get(id);
    while (!stopped && row && row.enabled === 1) {
      if (!position) position = positionOf(row, outbox);
      const pos = position;
      const upTo = pos.upTo();
      const batch = outbox.forWebhook(pos.after, upTo, row.types, BATCH);
      if (batch.length > 0) {
        if (!(await sendBatch(pos, batch, { attempts: row.attempts, failingSince: row.failingSince }))) break;
        // the retry state of the next head is fresh: only the first of a batch can carry one over
        row = { ...row, attempts: 0, failingSince: null };
        continue;
      }
      // nothing of its types up to upTo: the cursor moves over what it does not want
      if (upTo > pos.after) marker.set(upTo, pos.replayTo);
      pos.after = Math.max(pos.after, upTo);
      mark(true);
      if (pos.replayTo !== null) {
        position = undefined; // the replay is done: on from the cursor
        row = repo.get(id);
        continue;
      }
      await pause();
    }
    mark(true);
  }

  return {
    id,
    start(): void {
      stopped = false;
      running = (async () => {
        // a database that refuses a write (a full disk) stops the loop for a moment, not for good:
        // it reads its place again and goes on, sending the unrecorded ones again at worst
        while (!stopped) {
          try {
            await loop();
            return;
          } catch (err) {
            deps.log.error({ err, endpoint: id }, "webhook: delivery failed; starting again in a second");
            position = undefined;
            await pause(RESTART_MS);
          }
        }
      })();
    },
    /** New notifications committed. */
    wake: () => waiter.wake(),
    /** Ends the loop: the attempt under way is cut off (not delivered: sent again later). */
    async stop(): Promise<void> {
      stopped = true;
      deps.sender.abort();
      waiter.end();
      await running;
    },
    /** The seq it reads after: its lag is the age of the next one it wants. */
    after: (): number | undefined => position?.after,
    lastStatus: (): number | null => lastStatus,
  };
}

export type EndpointDelivery = ReturnType<typeof createEndpointDelivery>;
