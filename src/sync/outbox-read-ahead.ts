/**
 * The publisher's read-ahead: undelivered outbox rows in `seq` order, read `max` at a time into a buffer
 * of at most one window, so memory stays bounded however long the backlog
 * (docs/mqtt.md#notifications-outbox-order-and-redelivery).
 */
import type { OutboxRepo, PendingRow } from "../db/outbox.repo.js";

export function createReadAhead(outbox: Pick<OutboxRepo, "pending">) {
  /** Highest seq read from the outbox on this connection. */
  let cursor = 0;
  /** Rows read but not yet sent, oldest last. */
  let ahead: PendingRow[] = [];

  return {
    /** Reads again from after `seq` (the delivery cursor of a new connection). */
    restart(seq: number): void {
      cursor = seq;
      ahead = [];
    },
    clear(): void {
      ahead = [];
    },
    /** The next row to send, or undefined when caught up with the outbox. */
    next(max: number): PendingRow | undefined {
      if (ahead.length === 0) {
        ahead = outbox.pending(cursor, max);
        ahead.reverse();
        const last = ahead[0];
        if (last) cursor = last.seq;
      }
      return ahead.pop();
    },
    buffered: (): number => ahead.length,
  };
}

export type ReadAhead = ReturnType<typeof createReadAhead>;
