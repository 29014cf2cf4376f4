import type { OutboxRepo } from "../../db/outbox.repo.js";
import { fieldError } from "../../domain/errors.js";
import { splitNotification } from "../../domain/notification-parts.js";

/**
 * One page of `request/replay_notifications` (docs/mqtt.md#replaying-notifications): the envelopes after
 * a sequence number, byte for byte as committed (and as published on `notification`), in seq order,
 * delivered or not. Read-only: it publishes nothing and leaves the delivery cursor alone.
 */
export interface ReplayPage {
  notifications: Array<{ seq: number; payload: string }>;
  /** The seq of the last one returned (or skipped), or `after` when none. */
  next_after: number;
  /** More notifications are kept after `next_after`. */
  more: boolean;
  /** The newest notification's seq (the station's high-water mark), 0 before the first. */
  last_seq: number;
  /** The oldest seq still kept (delivered ones are pruned), or null when none is kept. */
  first_available_seq: number | null;
  /**
   * Notifications too large for one answer, passed over so paging goes on; present only when there
   * are any. They stay readable at GET /station/notifications.
   */
  skipped?: Array<{ seq: number; bytes: number }>;
  /**
   * Asked with `part`: one part of the first notification after `after`, when it is too large for any
   * answer (docs/mqtt.md#large-notifications-by-replay). `payload` is the part message, as the parts
   * on `notification` are; `next_after` stays `after` until the last part.
   */
  part?: { seq: number; index: number; count: number; payload: string };
}

export interface ReplayQuery {
  after: number;
  limit: number;
  /** The bytes the page may take as JSON text (the answer's `data`). */
  room: number;
  /** The consumer takes large notifications in parts: this one of the first (else they are skipped). */
  part?: number;
  /**
   * The room a part's page is cut for, at most `room`: the same for every answer on the link, so every
   * page cuts the notification alike (`room` when absent).
   */
  partRoom?: number;
}

/**
 * Bytes for every member but the lists, with the largest integers and `"skipped":[]`:
 * `{"notifications":[],"next_after":N,"more":false,"last_seq":N,"first_available_seq":N,"skipped":[]}`
 * is 104 bytes with three 16-digit numbers.
 */
const FIXED_BYTES = 160;
/** One `{"seq":N,"bytes":N},` with 16-digit numbers. */
const SKIPPED_BYTES = 56;

/** `{"seq":N,"payload":"…"},`: the envelope as a JSON string, escapes included. */
function entryBytes(seq: number, envelope: string): number {
  return Buffer.byteLength(JSON.stringify(envelope)) + `{"seq":${seq},"payload":},`.length;
}

/**
 * Takes rows in seq order while they fit in `room`. A row that would not fit even alone is skipped
 * (listed with its size) rather than blocking every page after it; one that fits alone ends the page.
 */
export function replayPage(
  outbox: Pick<OutboxRepo, "after" | "lastSeq" | "firstSeq">,
  q: ReplayQuery,
): ReplayPage {
  // one row more than asked: tells whether more are kept without a count
  const rows = outbox.after(q.after, q.limit + 1);
  const notifications: ReplayPage["notifications"] = [];
  const skipped: NonNullable<ReplayPage["skipped"]> = [];
  let used = FIXED_BYTES;
  let next = q.after;
  let taken = 0;
  for (const row of rows.slice(0, q.limit)) {
    const bytes = entryBytes(row.seq, row.envelope);
    if (used + bytes <= q.room) {
      notifications.push({ seq: row.seq, payload: row.envelope });
      used += bytes;
    } else if (FIXED_BYTES + bytes <= q.room || (taken > 0 && used + SKIPPED_BYTES > q.room)) {
      break;
    } else if (q.part !== undefined) {
      // in parts, on a page of its own: it ends a page that holds others
      if (taken > 0) break;
      const part = partOf(row, q.part, Math.min(q.partRoom ?? q.room, q.room));
      if (part === undefined) {
        skipped.push({ seq: row.seq, bytes: Buffer.byteLength(row.envelope) });
        next = row.seq;
        taken++;
        break;
      }
      const last = part.index === part.count - 1;
      return {
        notifications,
        next_after: last ? row.seq : q.after,
        more: !last || rows.length > 1,
        last_seq: outbox.lastSeq(),
        first_available_seq: outbox.firstSeq(),
        part,
      };
    } else {
      skipped.push({ seq: row.seq, bytes: Buffer.byteLength(row.envelope) });
      used += SKIPPED_BYTES;
    }
    next = row.seq;
    taken++;
  }
  return {
    notifications,
    next_after: next,
    more: rows.length > taken,
    last_seq: outbox.lastSeq(),
    first_available_seq: outbox.firstSeq(),
    ...(skipped.length > 0 ? { skipped } : {}),
  };
}

/** `"part":{"seq":N,"index":N,"count":N,"payload":""},` with 16-digit numbers. */
const PART_ENTRY_BYTES = 110;

/**
 * Part `index` of a notification too large for an answer, cut as on `notification`
 * (domain/notification-parts.ts) to fit an answer with its JSON escapes; undefined when the room
 * cannot hold a part. The cut depends only on the envelope and the room, so every page cuts alike.
 */
function partOf(
  row: { seq: number; envelope: string; notificationId: string },
  index: number,
  room: number,
): ReplayPage["part"] {
  const id = row.notificationId;
  // the part's quotes (20) and those the id needs escaped: base64 data needs none
  const escapes = 20 + 2 * (Buffer.byteLength(JSON.stringify(id)) - Buffer.byteLength(id));
  const parts = splitNotification(
    Buffer.from(row.envelope, "utf8"),
    id,
    room - FIXED_BYTES - PART_ENTRY_BYTES - escapes,
  );
  if (parts.length === 0) return undefined;
  const part = parts[index];
  if (part === undefined)
    throw fieldError(
      "part",
      `notification ${row.seq} comes in ${parts.length} parts in an answer this size: part is 0 to ${parts.length - 1}`,
    );
  return { seq: row.seq, index, count: parts.length, payload: part.toString("utf8") };
}
