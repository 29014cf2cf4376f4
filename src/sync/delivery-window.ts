/**
 * The publisher's window of rows in flight, and the delivery cursor behind it
 * (docs/mqtt.md#notifications-outbox-order-and-redelivery). A row counts as delivered only when it and
 * every row before it were acknowledged (PUBACK), so delivery is one durable cursor (outbox.repo.ts)
 * written for many messages at once, not one row update and fsync each.
 */
import type { Logger } from "pino";
import type { OutboxRepo } from "../db/outbox.repo.js";
import { isStorage } from "../services/unit-of-work/unit-of-work.js";

/**
 * One row sent (or moved aside) on this connection; `done` once it needs nothing more. A row sent in
 * parts (docs/mqtt.md#notifications-in-parts) has a slot per part: `seq` is what the slot's
 * acknowledgement delivers (the row's seq on its last part, the row before it on the others, so the row
 * counts as delivered only with all its parts), `row` the row it belongs to.
 */
export interface Slot {
  seq: number;
  row: number;
  done: boolean;
}

export interface DeliveryWindowDeps {
  outbox: Pick<OutboxRepo, "setCursor">;
  now(): number;
  onPublished(n: number): void;
  log?: Pick<Logger, "warn" | "info">;
}

/** The delivery cursor is written at most this often while acknowledgements stream in (one fsync each). */
const MARK_EVERY_MS = 100;

export function createDeliveryWindow(deps: DeliveryWindowDeps) {
  /** In seq order, oldest first. */
  let slots: Slot[] = [];
  /** Highest seq acknowledged with every row before it, and the highest recorded as delivered. */
  let acked = 0;
  let marked = 0;
  let markedAt = 0;
  /** The cursor could not be written last time (a full disk): logged once until it is written again. */
  let markFailing = false;

  /**
   * Records the cursor. A full or failing disk leaves it where it was, to be written by a later flush:
   * delivery goes on, and a crash meanwhile can only send those rows again, never lose one.
   */
  function mark(seq: number): void {
    try {
      deps.outbox.setCursor(seq);
    } catch (err) {
      if (!isStorage(err)) throw err;
      if (!markFailing) deps.log?.warn({ err, seq }, "outbox: could not record delivered notifications");
      markFailing = true;
      return;
    }
    marked = seq;
    if (markFailing) deps.log?.info({ seq }, "outbox: delivered notifications recorded again");
    markFailing = false;
  }
  /** Acknowledged since last reported. */
  let published = 0;
  /** A clean stop waiting for the window to empty. */
  let settled: Array<() => void> = [];

  function release(): void {
    for (const s of settled) s();
    settled = [];
  }

  return {
    /** A new connection: nothing in flight, every row up to `cursor` already delivered. */
    reset(cursor: number): void {
      slots = [];
      acked = marked = cursor;
    },
    /**
     * A row about to be sent (or moved aside), or one of its parts: its slot, behind every earlier one.
     * `seq` is what its acknowledgement delivers (below `row` for a part other than the last).
     */
    open(seq: number, row = seq): Slot {
      const slot: Slot = { seq, row, done: false };
      slots.push(slot);
      return slot;
    },
    /** The broker acknowledged the slot's row. */
    acknowledged(slot: Slot): void {
      slot.done = true;
      published++;
    },
    /**
     * Drops acknowledged rows from the head of the window and records them delivered: at most every
     * MARK_EVERY_MS, or at once with `force` (caught up, connection lost, stopping). A mark recorded late
     * can only cause a duplicate after a crash, never a loss.
     */
    flush(force = false): void {
      while (slots[0]?.done) acked = (slots.shift() as Slot).seq;
      if (published > 0) {
        deps.onPublished(published);
        published = 0;
      }
      const now = deps.now();
      if (acked > marked && (force || slots.length === 0 || now - markedAt >= MARK_EVERY_MS)) {
        mark(acked);
        markedAt = now;
      }
      if (slots.length === 0) release();
    },
    size: (): number => slots.length,
    /** The oldest slot needs nothing more: a flush would move the window on. */
    headDone: (): boolean => slots[0]?.done === true,
    /** The oldest row still waiting for its PUBACK. */
    oldestOpen: (): Slot | undefined => slots.find((s) => !s.done),
    inFlight: (): number => slots.filter((s) => !s.done).length,
    /** The connection is gone: rows not acknowledged stay undelivered; a waiting stop goes on. */
    drop(): void {
      slots = [];
      release();
    },
    /** Resolves when nothing is in flight any more, or after `ms`. */
    whenEmpty(ms: number): Promise<void> {
      if (slots.length === 0) return Promise.resolve();
      return new Promise<void>((ok) => {
        const t = setTimeout(ok, ms);
        settled.push(() => {
          clearTimeout(t);
          ok();
        });
      });
    },
  };
}

export type DeliveryWindow = ReturnType<typeof createDeliveryWindow>;
