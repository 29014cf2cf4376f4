/**
 * Webhook endpoints and their cursors (docs/webhooks.md). The admin door (services/webhooks/) writes
 * endpoints and replay requests; the running delivery (webhook-delivery/) writes only its own columns of the
 * cursor, so a command line beside the agent and the agent never overwrite each other's facts. Every
 * admin change bumps the endpoint's `revision`, which the running agent polls.
 */
import type { Sqlite } from "./open.js";
import type { SqlRow } from "./row.types.js";
import type { webhookCursors, webhookEndpoints } from "./tables.js";

type EndpointCols = SqlRow<typeof webhookEndpoints>;
type CursorCols = Omit<SqlRow<typeof webhookCursors>, "endpointId">;

/** An endpoint with its cursor, as stored. `types` is JSON or null (every type). */
export type WebhookRow = EndpointCols & CursorCols;

export interface NewEndpoint {
  id: string;
  url: string;
  types: string | null;
  secret: string;
  enabled: boolean;
  source: "config" | "admin";
}

/** What an attempt left behind, for status and metrics. */
export interface AttemptRecord {
  attempts: number;
  failingSince: number | null;
  lastStatus: number | null;
  lastError: string | null;
  at: number;
}

const SELECT = `SELECT e.id, e.url, e.types, e.secret, e.enabled, e.disabled_reason AS disabledReason,
    e.disabled_at AS disabledAt, e.source, e.revision, e.created_at AS createdAt, e.updated_at AS updatedAt,
    c.delivered_seq AS deliveredSeq, c.attempts, c.failing_since AS failingSince, c.last_status AS lastStatus,
    c.last_error AS lastError, c.last_attempt_at AS lastAttemptAt, c.last_delivered_at AS lastDeliveredAt,
    c.replay_next AS replayNext, c.replay_to AS replayTo
  FROM webhook_endpoints e JOIN webhook_cursors c ON c.endpoint_id = e.id`;

/**
 * What a cursor write also records: when it delivered, and, unless the notification after it is failing
 * already (`failing` 1: its retry state was written first and must stay), a fresh retry state.
 */
const RESET = `last_delivered_at = @at,
  attempts = CASE WHEN @failing THEN attempts ELSE 0 END,
  failing_since = CASE WHEN @failing THEN failing_since ELSE NULL END,
  last_status = CASE WHEN @failing THEN last_status ELSE coalesce(@status, last_status) END,
  last_error = CASE WHEN @failing THEN last_error ELSE NULL END`;

/** A cursor write: delivered up to `seq`, at `at`, the last answer `status`, and whether the next fails. */
export interface CursorMark {
  seq: number;
  at: number;
  status: number | null;
  failing: boolean;
}

export function createWebhooksRepo(sqlite: Sqlite) {
  const q = {
    all: sqlite.prepare<[], WebhookRow>(`${SELECT} ORDER BY e.id`),
    one: sqlite.prepare<[string], WebhookRow>(`${SELECT} WHERE e.id = ?`),
    revisions: sqlite.prepare<[], { id: string; revision: number }>(
      "SELECT id, revision FROM webhook_endpoints ORDER BY id",
    ),
    insert: sqlite.prepare(
      `INSERT INTO webhook_endpoints (id, url, types, secret, enabled, disabled_reason, disabled_at, source, created_at, updated_at)
       VALUES (@id, @url, @types, @secret, @enabled, @disabledReason, @disabledAt, @source, @now, @now)`,
    ),
    insertCursor: sqlite.prepare("INSERT INTO webhook_cursors (endpoint_id, delivered_seq) VALUES (?, ?)"),
    update: sqlite.prepare(
      `UPDATE webhook_endpoints SET url = @url, types = @types, secret = @secret, source = @source,
         revision = revision + 1, updated_at = @now WHERE id = @id`,
    ),
    enable: sqlite.prepare(
      `UPDATE webhook_endpoints SET enabled = 1, disabled_reason = NULL, disabled_at = NULL,
         revision = revision + 1, updated_at = ? WHERE id = ?`,
    ),
    disable: sqlite.prepare(
      `UPDATE webhook_endpoints SET enabled = 0, disabled_reason = ?, disabled_at = ?,
         revision = revision + 1, updated_at = ? WHERE id = ? AND enabled = 1`,
    ),
    resetRetry: sqlite.prepare(
      "UPDATE webhook_cursors SET attempts = 0, failing_since = NULL WHERE endpoint_id = ?",
    ),
    remove: sqlite.prepare("DELETE FROM webhook_endpoints WHERE id = ?"),
    replay: sqlite.prepare("UPDATE webhook_cursors SET replay_next = ?, replay_to = ? WHERE endpoint_id = ?"),
    bump: sqlite.prepare("UPDATE webhook_endpoints SET revision = revision + 1, updated_at = ? WHERE id = ?"),
    advance: sqlite.prepare(
      `UPDATE webhook_cursors SET delivered_seq = max(delivered_seq, @seq), ${RESET} WHERE endpoint_id = @id`,
    ),
    // Only the replay the deliverer is carrying out: a newer one asked for meanwhile is left alone.
    advanceReplay: sqlite.prepare(
      `UPDATE webhook_cursors SET replay_next = CASE WHEN @seq > replay_to THEN NULL ELSE @seq END,
         replay_to = CASE WHEN @seq > replay_to THEN NULL ELSE replay_to END, ${RESET}
       WHERE endpoint_id = @id AND replay_to = @replayTo`,
    ),
    attempt: sqlite.prepare(
      `UPDATE webhook_cursors SET attempts = ?, failing_since = ?, last_status = ?, last_error = ?,
         last_attempt_at = ? WHERE endpoint_id = ?`,
    ),
    minCursor: sqlite.prepare<[], { seq: number | null }>(
      "SELECT min(coalesce(replay_next - 1, delivered_seq)) AS seq FROM webhook_cursors",
    ),
  };

  return {
    list: (): WebhookRow[] => q.all.all(),
    get: (id: string): WebhookRow | undefined => q.one.get(id),
    /** Each endpoint's revision: a change made by another process shows here first. */
    revisions: () => q.revisions.all(),
    /** A new endpoint whose cursor starts at `deliveredSeq` (it gets what is committed after it). */
    insert(e: NewEndpoint, deliveredSeq: number, now: number): void {
      q.insert.run({
        ...e,
        enabled: e.enabled ? 1 : 0,
        disabledReason: e.enabled ? null : e.source,
        disabledAt: e.enabled ? null : now,
        now,
      });
      q.insertCursor.run(e.id, deliveredSeq);
    },
    update(e: Omit<NewEndpoint, "enabled">, now: number): void {
      q.update.run({ ...e, now });
    },
    /** Enabled again where its cursor stands, the retry state of its oldest notification cleared. */
    enable(id: string, now: number): void {
      q.enable.run(now, id);
      q.resetRetry.run(id);
    },
    /** Disabled (when enabled); whether it was. */
    disable: (id: string, reason: string, now: number): boolean =>
      q.disable.run(reason, now, now, id).changes > 0,
    remove: (id: string): boolean => q.remove.run(id).changes > 0,
    requestReplay(id: string, from: number, to: number, now: number): void {
      q.replay.run(from, to, id);
      q.bump.run(now, id);
    },
    /** Delivered up to `m.seq` (never moves back). */
    advance(id: string, m: CursorMark): void {
      q.advance.run({ ...m, failing: m.failing ? 1 : 0, id });
    },
    /** The replay ending at `replayTo` goes on after `m.seq` (finished once past it). */
    advanceReplay(id: string, m: CursorMark, replayTo: number): void {
      q.advanceReplay.run({ ...m, seq: m.seq + 1, failing: m.failing ? 1 : 0, id, replayTo });
    },
    recordAttempt(id: string, a: AttemptRecord): void {
      q.attempt.run(a.attempts, a.failingSince, a.lastStatus, a.lastError, a.at, id);
    },
    /** The lowest seq some endpoint still needs minus one (null: no endpoints): pruning stops there. */
    lowestCursor: (): number | null => q.minCursor.get()?.seq ?? null,
  };
}

export type WebhooksRepo = ReturnType<typeof createWebhooksRepo>;
