import type { Logger } from "pino";
import type { OutboxRepo, PendingRow } from "../db/outbox.repo.js";
import type { UnitOfWork } from "../services/unit-of-work.js";
import type { Link, PublishError } from "./link.js";

export interface PublisherDeps {
  outbox: Pick<OutboxRepo, "pending" | "cursor" | "setCursor" | "moveAside">;
  /** Moving a notification aside is two writes: one transaction. */
  unitOfWork: Pick<UnitOfWork, "run">;
  topic: string;
  /** Notifications in flight (published, PUBACK not yet received). */
  window: number;
  maxMessageBytes: number;
  maxDeliveryAttempts: number;
  now(): number;
  log: Logger;
  onPublished(n: number): void;
  onRefused(reason: string): void;
  /** Everything committed so far is delivered (the outbox bound's estimate can be reset). */
  onCaughtUp(): void;
}

/**
 * PUBACK reason codes that will not change on a retry (MQTT 5 §3.4.2.1): the row is moved aside
 * instead of blocking the rest (reference/mqtt.md a.5 rule 5, c.6: Greengrass drops the same codes).
 */
const PERMANENT: Record<number, string> = {
  135: "not_authorized",
  144: "topic_name_invalid",
  149: "packet_too_large",
  153: "payload_format_invalid",
};

/** Fixed header, topic and MQTT 5 properties on top of the payload, rounded up. */
const PACKET_OVERHEAD = 128;
/** Safety net for a missed wake-up, e.g. rows appended by another process on the same database. */
const POLL_MS = 1000;
/** The delivery cursor is written at most this often while acknowledgements stream in (one fsync each). */
const MARK_EVERY_MS = 100;

interface Slot {
  seq: number;
  done: boolean;
}

/**
 * The outbox relay (DESIGN.md §5, reference/mqtt.md a.5). Rows are read in `seq` order and published
 * with QoS 1, up to `window` at once, always in order on one topic; a row counts as delivered only when
 * it and every row before it were acknowledged (PUBACK), so delivery is one durable cursor
 * (outbox.repo.ts) written for many messages at once, not one row update and fsync each. A new connection
 * starts again from the oldest unacknowledged row: duplicates are possible after a reconnect (consumers
 * dedupe on `notification_id`), gaps and reordering are not. Memory is bounded by the window.
 */
export function createPublisher(deps: PublisherDeps) {
  let link: Link | undefined;
  /** Highest seq read from the outbox on this connection, and rows read but not yet sent (oldest last). */
  let cursor = 0;
  let ahead: PendingRow[] = [];
  let slots: Slot[] = [];
  /** Highest seq acknowledged with every row before it, and the highest recorded as delivered. */
  let acked = 0;
  let marked = 0;
  let markedAt = 0;
  let published = 0;
  let scheduled = false;
  let poll: NodeJS.Timeout | undefined;
  /** Connections lost while the same row was the oldest unacknowledged one (c.6: poison detection). */
  let strike = { seq: 0, count: 0 };
  let settled: Array<() => void> = [];
  let paused = false;

  // After a connection was lost with a row unacknowledged, that row goes alone until it is acknowledged:
  // with a full window the message that broke the connection may be any of those in flight, and only a
  // row sent alone can be blamed (and moved aside after maxDeliveryAttempts).
  const limit = (l: Link) => (strike.count > 0 ? 1 : Math.max(1, Math.min(deps.window, l.receiveMaximum)));
  const maxBytes = (l: Link) =>
    Math.min(deps.maxMessageBytes, (l.maximumPacketSize ?? Number.POSITIVE_INFINITY) - PACKET_OVERHEAD);

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    // Deferred: a wake-up may come from inside a transaction that has not committed yet.
    setImmediate(turn);
  }

  function moveAside(row: PendingRow, reason: string, code: number | null): void {
    deps.unitOfWork.run(() => deps.outbox.moveAside(row.seq, reason, code, deps.now()));
    deps.onRefused(reason);
    deps.log.error(
      {
        seq: row.seq,
        notificationId: row.notificationId,
        bytes: row.payload.length,
        reason,
        reasonCode: code,
      },
      "mqtt: notification refused for good; moved aside to outbox_dead",
    );
  }

  /**
   * Drops acknowledged rows from the head of the window and records them delivered: at most every
   * MARK_EVERY_MS, or at once with `force` (caught up, connection lost, stopping). A mark recorded late
   * can only cause a duplicate after a crash, never a loss.
   */
  function flush(force = false): void {
    while (slots[0]?.done) acked = (slots.shift() as Slot).seq;
    if (published > 0) {
      deps.onPublished(published);
      published = 0;
    }
    const now = deps.now();
    if (acked > marked && (force || slots.length === 0 || now - markedAt >= MARK_EVERY_MS)) {
      deps.outbox.setCursor(acked);
      marked = acked;
      markedAt = now;
    }
    if (slots.length === 0) {
      for (const s of settled) s();
      settled = [];
    }
  }

  function onAck(l: Link, slot: Slot, row: PendingRow, err: PublishError | undefined): void {
    if (l !== link) return; // an old connection: its rows are resent on the new one
    if (!err) {
      slot.done = true;
      published++;
      if (slot.seq >= strike.seq) strike = { seq: 0, count: 0 };
    } else if (err.reasonCode !== undefined && PERMANENT[err.reasonCode]) {
      moveAside(row, PERMANENT[err.reasonCode] as string, err.reasonCode);
      slot.done = true;
    } else {
      // Refused for now (quota, server busy…) or the link broke: resend from this row after a reconnect.
      if (err.reasonCode !== undefined) l.drop(`PUBACK reason ${err.reasonCode}: ${err.message}`);
      return;
    }
    schedule();
  }

  /** The next row to send: read `max` at a time into a buffer of at most one window (bounded memory). */
  function next(max: number): PendingRow | undefined {
    if (ahead.length === 0) {
      ahead = deps.outbox.pending(cursor, max);
      ahead.reverse();
      const last = ahead[0];
      if (last) cursor = last.seq;
    }
    return ahead.pop();
  }

  function fill(l: Link): void {
    const max = limit(l);
    const bytes = maxBytes(l);
    while (slots.length < max && link === l && l.up && !paused) {
      const row = next(max);
      if (!row) {
        // Caught up with the outbox: once the window is empty, nothing committed is undelivered.
        if (slots[0]?.done) flush();
        if (slots.length === 0) deps.onCaughtUp();
        return;
      }
      const slot: Slot = { seq: row.seq, done: false };
      slots.push(slot);
      if (row.payload.length > bytes) {
        moveAside(row, "too_large", null);
        slot.done = true;
      } else if (row.seq === strike.seq && strike.count >= deps.maxDeliveryAttempts) {
        moveAside(row, "retries_exhausted", null);
        slot.done = true;
        strike = { seq: 0, count: 0 };
      } else {
        l.publish(deps.topic, row.payload, false, (err) => onAck(l, slot, row, err));
      }
    }
  }

  function turn(): void {
    scheduled = false;
    flush();
    const l = link;
    if (l?.up) fill(l);
  }

  return {
    /** Starts draining on a new connection, from the oldest undelivered row. */
    attach(l: Link): void {
      link = l;
      paused = false;
      // Everything up to the delivery cursor was acknowledged on an earlier connection or run.
      cursor = deps.outbox.cursor();
      ahead = [];
      slots = [];
      acked = marked = cursor;
      if (poll) clearInterval(poll);
      poll = setInterval(schedule, POLL_MS);
      poll.unref();
      schedule();
    },
    /** The connection is gone: rows not acknowledged stay undelivered and are sent again next time. */
    detach(l: Link): void {
      if (link !== l) return;
      flush(true);
      const head = slots.find((s) => !s.done);
      if (head)
        strike =
          strike.seq === head.seq ? { seq: head.seq, count: strike.count + 1 } : { seq: head.seq, count: 1 };
      link = undefined;
      slots = [];
      ahead = [];
      if (poll) clearInterval(poll);
      poll = undefined;
      for (const s of settled) s();
      settled = [];
    },
    /** New notifications were committed. */
    wake(): void {
      if (link) schedule();
    },
    /**
     * For a clean stop: sends nothing more and resolves when nothing is in flight, or after `ms`, so the
     * last PUBACKs are recorded before the connection closes.
     */
    settle(ms: number): Promise<void> {
      paused = true;
      flush(true);
      if (slots.length === 0 || !link) return Promise.resolve();
      return new Promise<void>((ok) => {
        const t = setTimeout(ok, ms);
        settled.push(() => {
          clearTimeout(t);
          ok();
        });
      });
    },
    inFlight: () => slots.filter((s) => !s.done).length,
    /** Sending a backlog right now (rows in flight or read ahead). */
    draining: () => link !== undefined && (slots.length > 0 || ahead.length > 0),
  };
}

export type Publisher = ReturnType<typeof createPublisher>;
