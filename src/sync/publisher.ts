/**
 * The outbox relay (docs/mqtt.md#notifications-outbox-order-and-redelivery). Rows are read in `seq`
 * order (outbox-read-ahead.ts) and published with QoS 1, up to `window` at once, always in order on one
 * topic; delivery is the acknowledged prefix (delivery-window.ts). A new connection starts again from the
 * oldest unacknowledged row: duplicates are possible after a reconnect (consumers dedupe on
 * `notification_id`), gaps and reordering are not. Memory is bounded by the window. A row larger than
 * the link takes goes out as ordered parts, delivered once every part is acknowledged
 * (docs/mqtt.md#notifications-in-parts). A row the broker will never take is moved aside
 * (docs/mqtt.md#dead-letters).
 */
import type { Logger } from "pino";
import type { OutboxRepo, PendingRow } from "../db/outbox.repo.js";
import { isAppError } from "../domain/errors.js";
import { splitNotification } from "../domain/notification-parts.js";
import type { UnitOfWork } from "../services/unit-of-work/unit-of-work.js";
import { createDeliveryWindow, type DeliveryWindow, type Slot } from "./delivery-window.js";
import type { Link, PublishError } from "./link.js";
import { createReadAhead, type ReadAhead } from "./outbox-read-ahead.js";

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
 * instead of blocking the rest (docs/mqtt.md#dead-letters; Greengrass drops the same codes).
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

/**
 * The largest payload this link takes: the configured bound or the broker's Maximum Packet Size (MQTT 5
 * CONNACK) less the packet's header and topic, whichever is smaller (docs/mqtt.md#notifications-in-parts).
 */
export function effectiveMessageLimit(
  maxMessageBytes: number,
  maximumPacketSize: number | undefined,
  topic: string,
): number {
  const packet = (maximumPacketSize ?? Number.POSITIVE_INFINITY) - PACKET_OVERHEAD - Buffer.byteLength(topic);
  return Math.min(maxMessageBytes, packet);
}

function maxBytes(deps: PublisherDeps, l: Link): number {
  return effectiveMessageLimit(deps.maxMessageBytes, l.maximumPacketSize, deps.topic);
}

/** Copies the row to the dead letters and takes it out of the delivery queue, in one transaction. */
function moveAside(deps: PublisherDeps, row: PendingRow, reason: string, code: number | null): boolean {
  try {
    deps.unitOfWork.run(() => deps.outbox.moveAside(row.seq, reason, code, deps.now()));
  } catch (err) {
    // a full or failing disk (logged by the unit of work): the row stays where it is, tried again later
    if (isAppError(err) && err.kind === "unavailable") return false;
    throw err;
  }
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
  return true;
}

/** The disk refused to move a row aside: the link starts over, and the row is tried again after it. */
const DISK_REFUSED = "the database could not move a refused notification aside (disk full or failing)";

/** The relay's settings and parts, and what it holds between events. */
interface Relay {
  readonly deps: PublisherDeps;
  readonly reader: ReadAhead;
  readonly slots: DeliveryWindow;
  link: Link | undefined;
  scheduled: boolean;
  poll: NodeJS.Timeout | undefined;
  /** Connections lost while the same row was the oldest unacknowledged one (poison detection). */
  strike: { seq: number; count: number };
  /** A clean stop: nothing more is sent. */
  paused: boolean;
  /** The row being sent in parts: the parts not yet published, and the slots of those that were. */
  parts: Parts | undefined;
}

/** A row too large for one message, on its way in parts (docs/mqtt.md#notifications-in-parts). */
interface Parts {
  row: PendingRow;
  messages: Buffer[];
  next: number;
  slots: Slot[];
  /** Moved aside already (a part refused for good): the rest is not sent. */
  aside: boolean;
}

const NO_STRIKE = { seq: 0, count: 0 } as const;

/**
 * How many rows may be in flight. After a connection was lost with a row unacknowledged, that row goes
 * alone until it is acknowledged: with a full window the message that broke the connection may be any of
 * those in flight, and only a row sent alone can be blamed (and moved aside after maxDeliveryAttempts).
 */
function limit(r: Relay, l: Link): number {
  return r.strike.count > 0 ? 1 : Math.max(1, Math.min(r.deps.window, l.receiveMaximum));
}

function schedule(r: Relay): void {
  if (r.scheduled) return;
  r.scheduled = true;
  // Deferred: a wake-up may come from inside a transaction that has not committed yet.
  setImmediate(() => turn(r));
}

function turn(r: Relay): void {
  r.scheduled = false;
  r.slots.flush();
  const l = r.link;
  if (l?.up) fill(r, l);
}

function onAck(
  r: Relay,
  l: Link,
  slot: Slot,
  row: PendingRow,
  err: PublishError | undefined,
  parts?: Parts,
): void {
  if (l !== r.link) return; // an old connection: its rows are resent on the new one
  if (parts?.aside) return; // another part was refused for good: the row is aside, its slots done
  if (!err) {
    r.slots.acknowledged(slot);
    if (slot.seq >= r.strike.seq) r.strike = { ...NO_STRIKE };
  } else if (err.reasonCode !== undefined && PERMANENT[err.reasonCode]) {
    if (!moveAside(r.deps, row, PERMANENT[err.reasonCode] as string, err.reasonCode)) {
      l.drop(DISK_REFUSED);
      return;
    }
    slot.done = true;
    if (parts) {
      // the whole row is aside: its other parts need nothing more, and the rest are not sent
      parts.aside = true;
      for (const s of parts.slots) s.done = true;
      if (r.parts === parts) r.parts = undefined;
    }
  } else {
    // Refused for now (quota, server busy…) or the link broke: resend from this row after a reconnect.
    if (err.reasonCode !== undefined) l.drop(`PUBACK reason ${err.reasonCode}: ${err.message}`);
    return;
  }
  schedule(r);
}

/** Publishes the next part of the row being sent in parts; its last part delivers the row. */
function sendPart(r: Relay, l: Link, p: Parts): void {
  const i = p.next++;
  const last = i === p.messages.length - 1;
  const slot = r.slots.open(last ? p.row.seq : p.row.seq - 1, p.row.seq);
  p.slots.push(slot);
  if (last) r.parts = undefined;
  l.publish(r.deps.topic, p.messages[i] as Buffer, false, (err) => onAck(r, l, slot, p.row, err, p));
}

/** Why a row is moved aside before it is sent, if it is: a poison row, or one no part can carry. */
function asideBeforeSending(r: Relay, row: PendingRow, parts: Buffer[] | undefined): string | undefined {
  if (row.seq === r.strike.seq && r.strike.count >= r.deps.maxDeliveryAttempts) return "retries_exhausted";
  // a limit smaller than a part's header (a broker's Maximum Packet Size of a few hundred bytes)
  if (parts !== undefined && parts.length === 0) return "too_large";
  return undefined;
}

/** Sends rows (or parts of a row) until the window is full, the outbox is caught up, or the link changed. */
function fill(r: Relay, l: Link): void {
  const { deps, reader, slots } = r;
  const max = limit(r, l);
  const bytes = maxBytes(deps, l);
  while (slots.size() < max && r.link === l && l.up && !r.paused) {
    if (r.parts) {
      sendPart(r, l, r.parts);
      continue;
    }
    const row = reader.next(max);
    if (!row) {
      // Caught up with the outbox: once the window is empty, nothing committed is undelivered.
      if (slots.headDone()) slots.flush();
      if (slots.size() === 0) deps.onCaughtUp();
      return;
    }
    const messages =
      row.payload.length > bytes ? splitNotification(row.payload, row.notificationId, bytes) : undefined;
    const aside = asideBeforeSending(r, row, messages);
    if (aside) {
      const slot = slots.open(row.seq);
      if (!moveAside(deps, row, aside, null)) {
        l.drop(DISK_REFUSED);
        return;
      }
      slot.done = true;
      if (aside === "retries_exhausted") r.strike = { ...NO_STRIKE };
    } else if (messages) {
      r.parts = { row, messages, next: 0, slots: [], aside: false };
      deps.log.info(
        {
          seq: row.seq,
          notificationId: row.notificationId,
          bytes: row.payload.length,
          parts: messages.length,
          limit: bytes,
        },
        "mqtt: notification larger than one message; sent in parts",
      );
    } else {
      const slot = slots.open(row.seq);
      l.publish(deps.topic, row.payload, false, (err) => onAck(r, l, slot, row, err));
    }
  }
}

export function createPublisher(deps: PublisherDeps) {
  const r: Relay = {
    deps,
    reader: createReadAhead(deps.outbox),
    slots: createDeliveryWindow(deps),
    link: undefined,
    scheduled: false,
    poll: undefined,
    strike: { ...NO_STRIKE },
    paused: false,
    parts: undefined,
  };

  return {
    /** Starts draining on a new connection, from the oldest undelivered row. */
    attach(l: Link): void {
      r.link = l;
      r.paused = false;
      // Everything up to the delivery cursor was acknowledged on an earlier connection or run.
      const cursor = deps.outbox.cursor();
      r.reader.restart(cursor);
      r.slots.reset(cursor);
      r.parts = undefined;
      if (r.poll) clearInterval(r.poll);
      r.poll = setInterval(() => schedule(r), POLL_MS);
      r.poll.unref();
      schedule(r);
    },
    /** The connection is gone: rows not acknowledged stay undelivered and are sent again next time. */
    detach(l: Link): void {
      if (r.link !== l) return;
      r.slots.flush(true);
      // a row in parts is blamed as a whole (its row, not the seq its part delivers)
      const head = r.slots.oldestOpen()?.row ?? r.parts?.row.seq;
      if (head)
        r.strike = r.strike.seq === head ? { seq: head, count: r.strike.count + 1 } : { seq: head, count: 1 };
      r.link = undefined;
      r.parts = undefined;
      r.reader.clear();
      if (r.poll) clearInterval(r.poll);
      r.poll = undefined;
      r.slots.drop();
    },
    /** Records every acknowledged row as delivered now: dead letters are about to move the cursor back. */
    record(): void {
      r.slots.flush(true);
    },
    /**
     * The cursor was moved back (dead letters replayed, services/notifications/dead-letters.service.ts):
     * sending goes on from it as on a new connection. Rows in flight are sent again after the replayed
     * ones (a duplicate, never a gap); their late PUBACKs find no slot in the new window.
     */
    rewind(): void {
      if (!r.link) return; // the next connection starts from the cursor anyway
      const cursor = deps.outbox.cursor();
      r.slots.drop();
      r.slots.reset(cursor);
      r.reader.restart(cursor);
      r.parts = undefined;
      schedule(r);
    },
    /** New notifications were committed. */
    wake(): void {
      if (r.link) schedule(r);
    },
    /**
     * For a clean stop: sends nothing more and resolves when nothing is in flight, or after `ms`, so the
     * last PUBACKs are recorded before the connection closes.
     */
    settle(ms: number): Promise<void> {
      r.paused = true;
      r.slots.flush(true);
      return r.link ? r.slots.whenEmpty(ms) : Promise.resolve();
    },
    inFlight: () => r.slots.inFlight(),
    /** Sending a backlog right now (rows in flight or read ahead). */
    draining: () =>
      r.link !== undefined && (r.slots.size() > 0 || r.reader.buffered() > 0 || r.parts !== undefined),
  };
}

export type Publisher = ReturnType<typeof createPublisher>;
