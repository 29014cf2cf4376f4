import type { Logger } from "pino";
import type { Sqlite } from "../db/open.js";
import type { OutboxRepo } from "../db/outbox.repo.js";
import { AppError } from "../domain/errors.js";
import type { NotificationType } from "../domain/notification.js";
import type { AgentEvents, EventBus } from "../events.js";

/** What a use case may do inside its transaction besides writing its own tables. */
export interface Tx {
  now: number;
  /** Queue a notification: written to the outbox in this transaction. */
  notify(type: NotificationType, data: unknown): void;
  /** Announce an event on the bus once the transaction has committed. */
  announce<K extends keyof AgentEvents>(event: K, payload: AgentEvents[K]): void;
}

export interface TxDeps {
  sqlite: Sqlite;
  outbox: OutboxRepo;
  bus: EventBus;
  now: () => number;
  log: Logger;
  /** Refuse changes when this many notifications wait undelivered (DESIGN.md §6: never drop one). */
  outboxLimit: number;
}

/**
 * Runs a use case as one IMMEDIATE transaction: its state changes and its notifications commit
 * together (DESIGN.md §2). Events are announced only after the commit, so no reader ever sees a
 * change that could still roll back.
 */
/** At most this many queued changes share one commit (group commit, `runAsync`). */
const MAX_GROUP = 64;

interface Pending {
  fn: (tx: Tx) => unknown;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

interface Effects {
  events: Array<[keyof AgentEvents, unknown]>;
  lastSeq: number;
  appended: number;
}

export function createTxRunner(deps: TxDeps) {
  let undeliveredEstimate = deps.outbox.stats().undelivered;
  const queue: Pending[] = [];
  let scheduled = false;

  function makeTx(fx: Effects): Tx {
    const tx: Tx = {
      now: deps.now(),
      notify(type, data) {
        if (undeliveredEstimate >= deps.outboxLimit) {
          undeliveredEstimate = deps.outbox.stats().undelivered;
          if (undeliveredEstimate >= deps.outboxLimit) {
            throw new AppError(
              "outbox_full",
              `${undeliveredEstimate} notifications wait for delivery (limit ${deps.outboxLimit}); the change is refused, nothing was lost`,
            );
          }
        }
        fx.lastSeq = deps.outbox.append(type, data, tx.now).seq;
        fx.appended++;
        undeliveredEstimate++;
      },
      announce(event, payload) {
        fx.events.push([event, payload]);
      },
    };
    return tx;
  }

  function publish(fx: Effects): void {
    if (fx.lastSeq)
      deps.bus.emit("outbox", { lastSeq: fx.lastSeq }, (e) =>
        deps.log.error({ err: e }, "outbox listener failed"),
      );
    for (const [event, payload] of fx.events) {
      deps.bus.emit(event, payload as never, (e) =>
        deps.log.error({ err: e, event }, "event listener failed"),
      );
    }
  }

  /**
   * Group commit: the changes queued during one turn of the event loop run in one IMMEDIATE
   * transaction, each inside its own savepoint, so a failing change rolls back alone while the rest
   * share one fsync. Every caller is answered only after the commit (DESIGN.md §2: no change is
   * acknowledged before its transaction has committed).
   */
  function flush(): void {
    scheduled = false;
    const batch = queue.splice(0, MAX_GROUP);
    if (queue.length) schedule();
    const outcomes: Array<{ ok: true; value: unknown; fx: Effects } | { ok: false; error: unknown }> = [];
    try {
      deps.sqlite
        .transaction(() => {
          for (const p of batch) {
            const fx: Effects = { events: [], lastSeq: 0, appended: 0 };
            try {
              const value = deps.sqlite.transaction(() => p.fn(makeTx(fx)))();
              outcomes.push({ ok: true, value, fx });
            } catch (error) {
              undeliveredEstimate -= fx.appended;
              outcomes.push({ ok: false, error });
            }
          }
        })
        .immediate();
    } catch (error) {
      // The commit itself failed: nothing of the batch is durable, so every caller gets the error.
      for (const o of outcomes) if (o.ok) undeliveredEstimate -= o.fx.appended;
      for (const p of batch) p.reject(error);
      return;
    }
    batch.forEach((p, i) => {
      const o = outcomes[i];
      if (!o) return;
      if (o.ok) {
        publish(o.fx);
        p.resolve(o.value);
      } else p.reject(o.error);
    });
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  }

  return {
    /** One change, one transaction, now. */
    run<T>(fn: (tx: Tx) => T): T {
      const fx: Effects = { events: [], lastSeq: 0, appended: 0 };
      let result: T;
      try {
        result = deps.sqlite.transaction(() => fn(makeTx(fx))).immediate();
      } catch (e) {
        undeliveredEstimate -= fx.appended;
        throw e;
      }
      publish(fx);
      return result;
    },
    /** One change, committed together with the others queued in this turn of the event loop. */
    runAsync<T>(fn: (tx: Tx) => T): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ fn, resolve: resolve as (v: unknown) => void, reject });
        schedule();
      });
    },
    /** The publisher tells how many are still undelivered after it acknowledges a batch. */
    setUndelivered(n: number): void {
      undeliveredEstimate = n;
    },
  };
}

export type TxRunner = ReturnType<typeof createTxRunner>;
