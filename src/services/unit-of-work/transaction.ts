import type { Logger } from "pino";
import type { Sqlite, SqliteTransaction } from "../../db/open.js";
import type { OutboxRepo } from "../../db/outbox.repo.js";
import { AppError } from "../../domain/errors.js";
import type { NotificationType } from "../../domain/notification.js";
import type { AgentEvents, EventBus } from "../../events.js";
import type { StorageBudgetGuard } from "./storage-budget.js";
import { isBusy, isStorage, sqliteCode, storageAppError } from "./storage-failure.js";
import type { StorageHealth } from "./storage-health.js";

/**
 * The transaction itself, for the unit of work (unit-of-work.ts) and its group commit: the state
 * they share, the Tx a use case sees, savepoints, the IMMEDIATE transaction with its BUSY retry and
 * commit timing, and what a failed transaction is answered with.
 */

/** What a use case may do inside its transaction besides writing its own tables. */
export interface Tx {
  now: number;
  /** Queue a notification: written to the outbox in this transaction. */
  notify(type: NotificationType, data: unknown): void;
  /** Announce an event on the bus once the transaction has committed. */
  announce<K extends keyof AgentEvents>(event: K, payload: AgentEvents[K]): void;
}

/** How long one commit took; the composition root feeds it to /metrics. */
export interface CommitTiming {
  /** COMMIT alone: the durable write (WAL sync at synchronous=FULL). */
  commitSeconds: number;
  /** BEGIN to the end of COMMIT: the time the write lock was held. */
  transactionSeconds: number;
  /** Changes that shared the commit (group commit). */
  changes: number;
}

/**
 * What a repository holds in memory beside its tables (the outbox's next seq, a block of entity ids, the
 * station's small tables). It follows the writes made through that repository, so a rollback may leave it
 * ahead of the database: on every rollback of a transaction or savepoint it is forgotten, and read again
 * from the database when next needed.
 */
export interface TxMemory {
  forget(): void;
}

export interface UnitOfWorkDeps {
  sqlite: Sqlite;
  outbox: Pick<OutboxRepo, "append" | "undeliveredCount" | "undeliveredBytes"> & TxMemory;
  /** The other repositories' memory (the outbox's is forgotten as well). */
  memory?: readonly TxMemory[];
  bus: EventBus;
  now: () => number;
  log: Logger;
  /** Refuse changes when this many notifications wait undelivered (docs/architecture.md#durability-and-limits: never drop one). */
  outboxLimit: number;
  /** How many times a transaction is begun again when the database stayed locked (SQLITE_BUSY). */
  busyRetries?: number;
  onCommit?: (timing: CommitTiming) => void;
  /** Told of every storage failure and every commit: logs the episode, /readyz and /metrics. */
  storage?: StorageHealth;
  /** Refuses a change before its transaction begins once the storage budget is spent (storage-budget.ts). */
  budget?: Pick<StorageBudgetGuard, "admit">;
  /** Refuse changes when the undelivered notifications' envelopes take this many bytes. */
  outboxLimitBytes?: number;
  /**
   * The elapsed-time clock the group commit collects a burst by (group-commit.ts; default
   * `performance.now`): a test holds it to tell the batching rule from a machine that stalls.
   */
  elapsedMs?: () => number;
}

/** What one transaction did besides its own writes: published after its commit. */
export interface Effects {
  events: Array<[keyof AgentEvents, unknown]>;
  lastSeq: number;
  appended: number;
  appendedBytes: number;
}

export const effects = (): Effects => ({ events: [], lastSeq: 0, appended: 0, appendedBytes: 0 });

/** A rolled-back change's notifications no longer wait: the estimates drop them again. */
export function undoAppends(s: UnitState, fx: Effects): void {
  s.undeliveredEstimate -= fx.appended;
  s.undeliveredBytesEstimate -= fx.appendedBytes;
}

/** The unit of work's state, shared with the group commit beside it (group-commit.ts). */
export interface UnitState {
  deps: UnitOfWorkDeps;
  retries: number;
  /**
   * An upper bound of `outbox.undeliveredCount()` (appends add to it, the sync corrects it), so a
   * notification costs no count; a refusal is decided on the count itself.
   */
  undeliveredEstimate: number;
  /** The same for the undelivered envelopes' bytes (`outbox.undeliveredBytes`). */
  undeliveredBytesEstimate: number;
  /** The effects of the transaction open right now: a nested unit of work adds to them. */
  active: Effects | undefined;
  /**
   * The storage failure met in the open transaction. On a full disk or an I/O error SQLite may roll the
   * whole transaction back at once (sqlite.org/lang_transaction.html, "Response To Errors Within A
   * Transaction"), so what fails next ("no transaction is active") is only its consequence.
   */
  lost: unknown;
  /**
   * Runs a function in a transaction (`.immediate`), or in a savepoint of the one open: better-sqlite3's
   * wrapper, built once rather than for every change.
   */
  within: SqliteTransaction<(body: () => unknown) => unknown>;
}

/** The unit of work's state over these dependencies. */
export function unitState(deps: UnitOfWorkDeps): UnitState {
  return {
    deps,
    retries: deps.busyRetries ?? 2,
    undeliveredEstimate: deps.outbox.undeliveredCount(),
    undeliveredBytesEstimate: deps.outboxLimitBytes === undefined ? 0 : deps.outbox.undeliveredBytes(),
    active: undefined,
    lost: undefined,
    within: deps.sqlite.transaction((body: () => unknown) => body()),
  };
}

/**
 * The outbox's byte limit (config `outbox.maxUndeliveredBytes`): a few large notifications take the disk
 * that a count limit lets through. Decided on the bytes themselves once the estimate reaches it.
 */
function outboxBytesRoom(s: UnitState): void {
  const limit = s.deps.outboxLimitBytes;
  if (limit === undefined || s.undeliveredBytesEstimate < limit) return;
  s.undeliveredBytesEstimate = s.deps.outbox.undeliveredBytes();
  if (s.undeliveredBytesEstimate >= limit)
    throw new AppError(
      "outbox_full",
      `the notifications waiting for delivery take ${s.undeliveredBytesEstimate} bytes (limit ${limit}); the change is refused, nothing was lost`,
      [{ path: "outbox.maxUndeliveredBytes", message: `${s.undeliveredBytesEstimate} bytes wait` }],
    );
}

export function makeTx(s: UnitState, fx: Effects): Tx {
  const { deps } = s;
  const tx: Tx = {
    now: deps.now(),
    notify(type, data) {
      if (s.undeliveredEstimate >= deps.outboxLimit) {
        s.undeliveredEstimate = deps.outbox.undeliveredCount();
        if (s.undeliveredEstimate >= deps.outboxLimit) {
          throw new AppError(
            "outbox_full",
            `${s.undeliveredEstimate} notifications wait for delivery (limit ${deps.outboxLimit}); the change is refused, nothing was lost`,
          );
        }
      }
      outboxBytesRoom(s);
      const appended = deps.outbox.append(type, data, tx.now);
      fx.lastSeq = appended.seq;
      fx.appended++;
      fx.appendedBytes += appended.bytes;
      s.undeliveredEstimate++;
      s.undeliveredBytesEstimate += appended.bytes;
    },
    announce(event, payload) {
      fx.events.push([event, payload]);
    },
  };
  return tx;
}

/** Announces a committed transaction's events on the bus. */
export function publish({ deps }: UnitState, fx: Effects): void {
  if (fx.lastSeq)
    deps.bus.emit("outbox", { lastSeq: fx.lastSeq }, (e) =>
      deps.log.error({ err: e }, "outbox listener failed"),
    );
  for (const [event, payload] of fx.events) {
    deps.bus.emit(event, payload as never, (e) => deps.log.error({ err: e, event }, "event listener failed"));
  }
}

/** A stable code for what the disk refused; any other error is left as it is (a bug: 500). */
export function storageFailure({ deps }: UnitState, e: unknown): unknown {
  const code = sqliteCode(e);
  if (code === undefined || !isStorage(e)) return e;
  if (deps.storage) deps.storage.failed(code, e);
  else deps.log.error({ err: e, code }, "database write failed; the change is refused");
  return storageAppError(code);
}

/** Why a whole transaction failed: the storage failure met in it, if any, else `error` itself. */
export function failureOf(s: UnitState, error: unknown): unknown {
  return storageFailure(s, isStorage(error) || s.lost === undefined ? error : s.lost);
}

/** A transaction or savepoint rolled back: what the repositories hold in memory is read again. */
export function rolledBack({ deps }: UnitState): void {
  deps.outbox.forget();
  for (const m of deps.memory ?? []) m.forget();
}

/** Runs `fn` in a savepoint of the open transaction, collecting its effects into `fx`. */
export function inSavepoint<T>(s: UnitState, fn: (tx: Tx) => T, fx: Effects): T {
  const outer = s.active;
  s.active = fx;
  try {
    return s.within(() => fn(makeTx(s, fx))) as T;
  } catch (e) {
    undoAppends(s, fx);
    rolledBack(s);
    if (isStorage(e)) s.lost ??= e;
    throw e;
  } finally {
    s.active = outer;
  }
}

/**
 * Opens one IMMEDIATE transaction around `body`. When the database refuses to begin it (locked by
 * another process past busy_timeout), `body` has not run; `retry` says whether to begin again now.
 */
export function transaction<T>(
  s: UnitState,
  body: () => T,
  changes: number,
  retry: (attempt: number) => boolean,
): T {
  for (let attempt = 0; ; attempt++) {
    let began = 0;
    let done = 0;
    try {
      const result = s.within.immediate(() => {
        began = performance.now();
        s.lost = undefined;
        const r = body();
        done = performance.now();
        return r;
      }) as T;
      const end = performance.now();
      const timing = {
        commitSeconds: (end - done) / 1000,
        transactionSeconds: (end - began) / 1000,
        changes,
      };
      s.deps.onCommit?.(timing);
      s.deps.storage?.committed();
      return result;
    } catch (e) {
      if (began) rolledBack(s);
      if (began || !isBusy(e) || !retry(attempt)) throw e;
    }
  }
}
