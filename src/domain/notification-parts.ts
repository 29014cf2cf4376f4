/**
 * The notification part envelope (docs/mqtt.md#notifications-in-parts): a notification larger than the
 * link's message limit goes out as ordered parts on the same topic, each a small JSON object that names
 * the notification, its index and count, the whole envelope's size and SHA-256, and carries a slice of
 * the envelope's UTF-8 bytes in base64 (any byte slice, so a slice may cut a character: base64 keeps
 * each part valid UTF-8 JSON, as MQTT 5's payload format indicator promises). Central puts the bytes
 * back together and gets the envelope byte for byte as committed.
 *
 * Pure: no IO, no clock. `splitNotification` is the agent's side, `PartAssembler` central's (the
 * reference consumer uses it: examples/central-consumer/src/stations.ts).
 */
import { createHash } from "node:crypto";

/** The member that tells a part from a whole notification (which has exactly four others). */
export const PART_MEMBER = "notification_part";

/** What each part says about the notification it belongs to. */
export interface PartHeader {
  notification_id: string;
  /** 0 for the first part. */
  index: number;
  /** How many parts the notification has, at least 2. */
  count: number;
  /** The whole envelope's length in UTF-8 bytes. */
  bytes: number;
  /** SHA-256 of the whole envelope's bytes, lowercase hex. */
  sha256: string;
}

function sha256(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function encodePart(header: PartHeader, data: Buffer): Buffer {
  return Buffer.from(JSON.stringify({ [PART_MEMBER]: header, data: data.toString("base64") }), "utf8");
}

/** The raw bytes a part of at most `maxPartBytes` can carry, when the header is as long as `header`'s. */
function rawPerPart(header: PartHeader, maxPartBytes: number): number {
  const overhead = encodePart(header, Buffer.alloc(0)).length;
  return Math.floor((maxPartBytes - overhead) / 4) * 3;
}

/**
 * The parts of `envelope`, each at most `maxPartBytes` long, in order; `[]` when no part of that size
 * can carry a byte (a limit smaller than the header). An envelope that fits is not split: the caller
 * publishes it whole.
 */
export function splitNotification(envelope: Buffer, notificationId: string, maxPartBytes: number): Buffer[] {
  const digest = sha256(envelope);
  const header = (index: number, count: number): PartHeader => ({
    notification_id: notificationId,
    index,
    count,
    bytes: envelope.length,
    sha256: digest,
  });
  // the header's length grows with the count's digits: the widest header of `count` parts decides
  let count = 2;
  for (;;) {
    const raw = rawPerPart(header(count - 1, count), maxPartBytes);
    if (raw <= 0) return [];
    const needed = Math.max(2, Math.ceil(envelope.length / raw));
    if (needed <= count) {
      const parts: Buffer[] = [];
      for (let i = 0; i < needed; i++)
        parts.push(encodePart(header(i, needed), envelope.subarray(i * raw, (i + 1) * raw)));
      return parts;
    }
    count = needed;
  }
}

/** What the assembler made of one message. */
export type PartOutcome =
  /** Not a part: the message is a whole notification (or anything else), to be handled as it is. */
  | { kind: "whole" }
  /** A part was kept (or was a repeat of one kept); the notification is not complete yet. */
  | { kind: "pending"; notificationId: string; have: number; count: number }
  /** The last missing part: the envelope, byte for byte as the station committed it. */
  | { kind: "complete"; notificationId: string; envelope: Buffer }
  /**
   * Something is wrong: `error` says what. A bad part is dropped; parts that can no longer complete
   * (`abandoned`, the id of a set given up) are dropped with it. Central repairs the notification as a
   * gap (docs/mqtt.md#gaps-and-the-high-water-mark).
   */
  | { kind: "refused"; error: string; abandoned?: string };

/** The set of parts being gathered. */
interface Gathering {
  header: PartHeader;
  data: (Buffer | undefined)[];
  have: number;
  size: number;
}

const DIGEST = /^[0-9a-f]{64}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The header and data of a part, or what is wrong with it. */
function readPart(
  message: unknown,
  maxBytes: number,
): { header: PartHeader; data: Buffer } | { error: string } | undefined {
  if (typeof message !== "object" || message === null || !(PART_MEMBER in message)) return undefined;
  const { [PART_MEMBER]: h, data } = message as Record<string, unknown>;
  if (typeof h !== "object" || h === null) return { error: `${PART_MEMBER} is not an object` };
  const header = h as Record<string, unknown>;
  const int = (k: string, min: number) =>
    Number.isSafeInteger(header[k]) && (header[k] as number) >= min ? undefined : `${PART_MEMBER}.${k}`;
  const bad =
    (typeof header.notification_id === "string" && header.notification_id.length > 0
      ? undefined
      : `${PART_MEMBER}.notification_id`) ??
    int("count", 2) ??
    int("index", 0) ??
    int("bytes", 1) ??
    (typeof header.sha256 === "string" && DIGEST.test(header.sha256) ? undefined : `${PART_MEMBER}.sha256`) ??
    (typeof data === "string" && data.length % 4 === 0 && BASE64.test(data) ? undefined : "data");
  if (bad) return { error: `bad part: ${bad} is missing or invalid` };
  const ph = header as unknown as PartHeader;
  if (ph.index >= ph.count)
    return { error: `bad part: index ${ph.index} is not below count ${ph.count} (${ph.notification_id})` };
  if (ph.bytes > maxBytes)
    return { error: `bad part: ${ph.notification_id} announces ${ph.bytes} bytes, more than ${maxBytes}` };
  return {
    header: {
      notification_id: ph.notification_id,
      index: ph.index,
      count: ph.count,
      bytes: ph.bytes,
      sha256: ph.sha256,
    },
    data: Buffer.from(data as string, "base64"),
  };
}

const sameSet = (a: PartHeader, b: PartHeader) =>
  a.notification_id === b.notification_id &&
  a.count === b.count &&
  a.bytes === b.bytes &&
  a.sha256 === b.sha256;

/**
 * Puts one station's parts back together (one assembler per station: parts of a station come in its
 * order on its one topic). Repeats are harmless: the agent sends a whole set again after a reconnect
 * (docs/mqtt.md#notifications-in-parts), and a part it already has is taken as a repeat. Parts may come
 * in any order within their set. When a message of another notification arrives while a set is
 * incomplete, the set can no longer complete (order is per topic): it is given up and reported.
 * Memory: one set at a time, at most `maxBytes` (64 MiB by default).
 */
export class PartAssembler {
  private current: Gathering | undefined;

  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  /** The notification being gathered, if any: its id, the parts held and the count. */
  pending(): { notificationId: string; have: number; count: number } | undefined {
    const c = this.current;
    return c && { notificationId: c.header.notification_id, have: c.have, count: c.header.count };
  }

  /** One message of the station's `notification` topic: a part, or anything else (`whole`). */
  offer(payload: Buffer | string): PartOutcome {
    let message: unknown;
    try {
      message = JSON.parse(typeof payload === "string" ? payload : payload.toString("utf8"));
    } catch {
      return this.other();
    }
    const part = readPart(message, this.maxBytes);
    if (part === undefined) {
      // a whole notification: an incomplete set before it will not complete (unless it is a repeat of
      // one delivered before the set, which a reconnect can bring: the set's parts follow it again)
      return this.other(message);
    }
    if ("error" in part) return { kind: "refused", error: part.error };
    return this.take(part.header, part.data);
  }

  private other(message?: unknown): PartOutcome {
    const c = this.current;
    const id = (message as { notification_id?: unknown } | undefined)?.notification_id;
    if (!c) return { kind: "whole" };
    // an older one sent again after a reconnect: the set's parts come again after it
    if (typeof id === "string" && seqOf(id) < seqOf(c.header.notification_id)) return { kind: "whole" };
    this.current = undefined;
    return {
      kind: "refused",
      error: `incomplete: ${c.header.notification_id} has ${c.have} of ${c.header.count} parts (missing ${missing(c)}) and another message arrived`,
      abandoned: c.header.notification_id,
    };
  }

  private take(header: PartHeader, data: Buffer): PartOutcome {
    let c = this.current;
    let abandoned: Gathering | undefined;
    if (c && !sameSet(c.header, header)) {
      if (c.header.notification_id === header.notification_id)
        return {
          kind: "refused",
          error: `mixed parts: ${header.notification_id} part ${header.index} says ${header.count} parts, ${header.bytes} bytes, sha256 ${header.sha256.slice(0, 12)}…, the parts held say ${c.header.count}, ${c.header.bytes}, ${c.header.sha256.slice(0, 12)}…`,
        };
      // an older set sent again after a reconnect: the current one is sent again after it
      if (seqOf(header.notification_id) >= seqOf(c.header.notification_id)) abandoned = c;
      c = undefined;
    }
    if (!c) {
      c = { header, data: new Array(header.count).fill(undefined), have: 0, size: 0 };
      this.current = c;
    }
    const held = c.data[header.index];
    if (held) {
      if (!held.equals(data))
        return {
          kind: "refused",
          error: `duplicated part: ${header.notification_id} part ${header.index} came twice with different data`,
        };
    } else {
      c.data[header.index] = data;
      c.have++;
      c.size += data.length;
      if (c.size > header.bytes) {
        this.current = undefined;
        return {
          kind: "refused",
          error: `bad part: the parts of ${header.notification_id} hold more than the ${header.bytes} bytes announced`,
          abandoned: header.notification_id,
        };
      }
    }
    if (abandoned)
      return {
        kind: "refused",
        error: `incomplete: ${abandoned.header.notification_id} has ${abandoned.have} of ${abandoned.header.count} parts (missing ${missing(abandoned)}) and ${header.notification_id} began`,
        abandoned: abandoned.header.notification_id,
      };
    if (c.have < header.count)
      return { kind: "pending", notificationId: header.notification_id, have: c.have, count: header.count };
    this.current = undefined;
    const envelope = Buffer.concat(c.data as Buffer[]);
    if (envelope.length !== header.bytes || sha256(envelope) !== header.sha256)
      return {
        kind: "refused",
        error: `wrong digest: the ${header.count} parts of ${header.notification_id} make ${envelope.length} bytes whose SHA-256 is not the one announced`,
        abandoned: header.notification_id,
      };
    return { kind: "complete", notificationId: header.notification_id, envelope };
  }
}

function missing(c: Gathering): string {
  const gone = c.data.flatMap((d, i) => (d ? [] : [i]));
  return gone.length > 5 ? `${gone.slice(0, 5).join(", ")}, …` : gone.join(", ");
}

/** The seq a `notification_id` (`<site>.<ppsId>.<seq>`) ends with; 0 if it is not one. */
function seqOf(id: string): number {
  const seq = Number(id.slice(id.lastIndexOf(".") + 1));
  return Number.isSafeInteger(seq) && seq > 0 ? seq : 0;
}
