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
export function createTxRunner(deps: TxDeps) {
  let undeliveredEstimate = deps.outbox.stats().undelivered;

  return {
    run<T>(fn: (tx: Tx) => T): T {
      const events: Array<[keyof AgentEvents, unknown]> = [];
      let lastSeq = 0;
      const body = deps.sqlite.transaction(() => {
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
            lastSeq = deps.outbox.append(type, data, tx.now).seq;
            undeliveredEstimate++;
          },
          announce(event, payload) {
            events.push([event, payload]);
          },
        };
        return fn(tx);
      });
      const result = body.immediate();
      if (lastSeq)
        deps.bus.emit("outbox", { lastSeq }, (e) => deps.log.error({ err: e }, "outbox listener failed"));
      for (const [event, payload] of events) {
        deps.bus.emit(event, payload as never, (e) =>
          deps.log.error({ err: e, event }, "event listener failed"),
        );
      }
      return result;
    },
    /** The publisher tells how many are still undelivered after it acknowledges a batch. */
    setUndelivered(n: number): void {
      undeliveredEstimate = n;
    },
  };
}

export type TxRunner = ReturnType<typeof createTxRunner>;
