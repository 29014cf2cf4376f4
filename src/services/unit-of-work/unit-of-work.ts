import type { BudgetTier } from "../../domain/storage-budget.js";
import { createGroupCommit } from "./group-commit.js";
import {
  effects,
  failureOf,
  inSavepoint,
  makeTx,
  publish,
  type Tx,
  transaction,
  type UnitOfWorkDeps,
  type UnitState,
  undoAppends,
  unitState,
} from "./transaction.js";

export { createStorageBudget, type StorageBudgetGuard } from "./storage-budget.js";
// What the disk refused and the storage's health are the unit of work's to tell: every write meets them
// here first; the HTTP answer, the background jobs and the sync read them from this door too.
export { isStorage, sqliteCode, storageAppError } from "./storage-failure.js";
export { createStorageHealth, type StorageHealth } from "./storage-health.js";
export type { CommitTiming, Tx, TxMemory, UnitOfWorkDeps } from "./transaction.js";

/**
 * One change, one transaction, now (or a savepoint of the transaction already open). `budgeted`: refused
 * before it begins once the storage budget is spent (the station's own upkeep at start is not).
 */
function run<T>(s: UnitState, fn: (tx: Tx) => T, budgeted: BudgetTier | false = "client"): T {
  const fx = effects();
  const outer = s.active;
  if (outer) {
    const result = inSavepoint(s, fn, fx);
    outer.events.push(...fx.events);
    outer.lastSeq = fx.lastSeq || outer.lastSeq;
    outer.appended += fx.appended;
    return result;
  }
  let result: T;
  try {
    const body = () => {
      s.active = fx;
      try {
        return fn(makeTx(s, fx));
      } finally {
        s.active = undefined;
      }
    };
    if (budgeted) s.deps.budget?.admit(budgeted);
    result = transaction(s, body, 1, (attempt) => attempt < s.retries);
  } catch (e) {
    undoAppends(s, fx);
    throw failureOf(s, e);
  }
  publish(s, fx);
  return result;
}

/**
 * The unit of work: every transaction of the agent opens here
 * (docs/architecture.md#one-transaction-per-change). A use case runs as one IMMEDIATE transaction: its
 * state changes and its notifications commit together. Events are announced only after the commit, so
 * no reader ever sees a change that could still roll back. A unit of work opened inside another (an
 * MQTT request's inbox row around the operation it runs) joins it as a savepoint, and its events wait
 * for the outer commit. This is also the one place that retries a
 * transaction the database refused to begin (SQLITE_BUSY), turns storage failures into stable error
 * codes (`storage_full`, `storage_error`: 503, nothing changed), and times commits.
 */
export function createUnitOfWork(deps: UnitOfWorkDeps) {
  const s = unitState(deps);
  const group = createGroupCommit(s);
  const uow = {
    run: <T>(fn: (tx: Tx) => T): T => run(s, fn),
    /** The station's own upkeep (its seats and bins at start), admitted past the storage budget. */
    runUpkeep: <T>(fn: (tx: Tx) => T): T => run(s, fn, false),
    /** One change, committed together with the others queued meanwhile (group-commit.ts). */
    runAsync: group.runAsync,
    /** The sync tells how many are still undelivered (outbox.undeliveredCount) after a delivery. */
    setUndelivered(n: number): void {
      s.undeliveredEstimate = n;
      // the bytes are an upper bound until counted again (outboxBytesRoom); none wait when none do
      if (n === 0) s.undeliveredBytesEstimate = 0;
    },
    /** Notifications waiting for the broker, as estimated between counts (the operator screen's notice). */
    undelivered: (): number => s.undeliveredEstimate,
    /** The bytes they take: an upper bound between counts (the operator screen's notice of the byte bound). */
    undeliveredBytes: (): number => s.undeliveredBytesEstimate,
    /** The sync counted the bytes again (outbox.undeliveredBytes) while near the byte bound. */
    setUndeliveredBytes(n: number): void {
      s.undeliveredBytesEstimate = n;
    },
    /**
     * The same unit of work for the work at the station (the operations door: picks, puts, scans): past
     * the storage budget it may still use `storage.stationReserveBytes`, so a client that filled the
     * budget does not stop the operators (docs/operations.md#storage-budget).
     */
    forStation(): UnitOfWork {
      return {
        ...uow,
        run: <T>(fn: (tx: Tx) => T): T => run(s, fn, "station"),
        runAsync: <T>(fn: (tx: Tx) => T): Promise<T> => group.runAsync(fn, "station"),
      };
    },
  };
  return uow;
}

export interface UnitOfWork {
  run<T>(fn: (tx: Tx) => T): T;
  runUpkeep<T>(fn: (tx: Tx) => T): T;
  runAsync<T>(fn: (tx: Tx) => T): Promise<T>;
  setUndelivered(n: number): void;
  undelivered(): number;
  undeliveredBytes(): number;
  setUndeliveredBytes(n: number): void;
  forStation(): UnitOfWork;
}
