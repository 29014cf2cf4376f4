import type { BudgetTier } from "../../domain/storage-budget.js";
import { isBusy } from "./storage-failure.js";
import {
  type Effects,
  effects,
  failureOf,
  inSavepoint,
  publish,
  storageFailure,
  type Tx,
  transaction,
  type UnitState,
  undoAppends,
} from "./transaction.js";

/** At most this many queued changes share one commit. */
const MAX_GROUP = 64;
/** Changes are collected for one commit while more keep arriving, at most this long after the first. */
const COLLECT_MS = 4;
/**
 * A commit holds the event loop while its changes run (and while the WAL syncs), and the station's
 * scans wait meanwhile (docs/architecture.md#performance-targets): a batch is cut where its changes
 * would take longer than this, by the time changes took in the last commits.
 */
const WORK_BUDGET_MS = 10;

interface Pending {
  fn: (tx: Tx) => unknown;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
  /** Times the database refused to begin this change's transaction. */
  attempts: number;
  /** Whose change it is, for the storage budget (storage-budget.ts). */
  tier: BudgetTier;
}

type Outcome = { ok: true; value: unknown; fx: Effects } | { ok: false; error: unknown };

/**
 * Group commit, part of the unit of work (unit-of-work.ts): the changes queued during one turn of the
 * event loop run in one IMMEDIATE transaction, each inside its own savepoint, so a failing change rolls
 * back alone while the rest share one fsync. Every caller is answered only after the commit
 * (docs/architecture.md: no change is acknowledged before its transaction has committed). A batch the database
 * refused to begin goes back to the queue for a later turn rather than blocking the loop.
 */
export function createGroupCommit(s: UnitState) {
  const elapsedMs = s.deps.elapsedMs ?? (() => performance.now());
  const queue: Pending[] = [];
  let scheduled = false;
  let firstQueuedAt = 0;
  let seen = 0;
  /** What one change took inside the transaction lately (moving average, ms). */
  let changeMs = 0.25;

  /** How many changes fit in the work budget. */
  const groupLimit = () => Math.max(4, Math.min(MAX_GROUP, Math.floor(WORK_BUDGET_MS / changeMs)));

  function attempt(p: Pending): Outcome {
    const fx = effects();
    try {
      return { ok: true, value: inSavepoint(s, p.fn, fx), fx };
    } catch (error) {
      return { ok: false, error };
    }
  }

  /** The batch failed as a whole: nothing of it is durable. True when it is queued again instead. */
  function failed(batch: Pending[], outcomes: Outcome[], error: unknown): boolean {
    for (const o of outcomes) if (o.ok) undoAppends(s, o.fx);
    if (outcomes.length === 0 && isBusy(error) && (batch[0]?.attempts ?? s.retries) < s.retries) {
      for (const p of batch) p.attempts++;
      queue.unshift(...batch);
      return true;
    }
    const reason = failureOf(s, error);
    for (const p of batch) p.reject(reason);
    return false;
  }

  function admitted(p: Pending): boolean {
    try {
      s.deps.budget?.admit(p.tier);
      return true;
    } catch (e) {
      p.reject(e);
      return false;
    }
  }

  function flush(): void {
    scheduled = false;
    // past the storage budget a change is refused before anything of it begins (storage-budget.ts)
    const batch = queue.splice(0, groupLimit()).filter((p) => admitted(p));
    const outcomes: Outcome[] = [];
    if (!batch.length) {
      if (queue.length) schedule();
      return;
    }
    try {
      const body = () => {
        const began = elapsedMs();
        // a change SQLite rolled the whole transaction back for ends the batch: none of it is durable
        for (const p of batch) if (s.deps.sqlite.inTransaction) outcomes.push(attempt(p));
        changeMs = 0.8 * changeMs + (0.2 * (elapsedMs() - began)) / batch.length;
      };
      transaction(s, body, batch.length, () => false);
    } catch (error) {
      failed(batch, outcomes, error);
      if (queue.length) schedule();
      return;
    }
    if (queue.length) schedule();
    batch.forEach((p, i) => {
      const o = outcomes[i] as Outcome;
      if (o.ok) {
        publish(s, o.fx);
        p.resolve(o.value);
      } else p.reject(storageFailure(s, o.error));
    });
  }

  /**
   * Waits a turn of the event loop while changes keep arriving: the HTTP handlers started this turn
   * (at most a few per turn, http/turn-budget.ts) queue theirs before the next, so the commit carries the
   * whole burst rather than its first few. It flushes at the first turn that brought nothing new, once
   * the batch is full, or COLLECT_MS after the first change.
   */
  function collect(): void {
    const arrived = queue.length > seen;
    seen = queue.length;
    if (arrived && queue.length < groupLimit() && elapsedMs() - firstQueuedAt < COLLECT_MS) {
      setImmediate(collect);
      return;
    }
    flush();
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    seen = queue.length;
    firstQueuedAt = elapsedMs();
    setImmediate(collect);
  }

  return {
    runAsync<T>(fn: (tx: Tx) => T, tier: BudgetTier = "client"): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ fn, resolve: resolve as (v: unknown) => void, reject, attempts: 0, tier });
        schedule();
      });
    },
  };
}
