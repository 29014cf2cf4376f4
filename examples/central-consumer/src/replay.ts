/**
 * The replay request (docs/mqtt.md, "Gaps and the high-water mark"): `request/replay_notifications`
 * with `{transaction, after, limit}` is answered on `response/replay_notifications` with the envelopes
 * after `after`, byte for byte as published, one page at a time. Answers are matched by `transaction`;
 * every attempt has a transaction of its own (a replay changes nothing at the station, so a lost answer
 * is simply asked for again) and a deadline, since a station that is offline never answers.
 */
import type { Notification } from "./station-stream.js";
import { REPLAY, topicOf } from "./topics.js";

export interface ReplayPage {
  notifications: Notification[];
  /** The `after` of the next page. */
  next_after: number;
  more: boolean;
  /** The newest seq the station has produced. */
  last_seq: number;
  /** The oldest seq the station still has; null when it has none. */
  first_available_seq: number | null;
  /** Present only when the station passed over notifications too large for any answer. */
  skipped?: { seq: number; bytes: number }[];
  /**
   * One part of a notification too large for any answer (docs/mqtt.md#large-notifications-by-replay):
   * `payload` is a part message as on `notification`; ask again with `part: index + 1` until the last.
   */
  part?: { seq: number; index: number; count: number; payload: string };
}

interface Waiting {
  ok(page: ReplayPage): void;
  fail(error: Error): void;
  timer: NodeJS.Timeout;
}

export interface Replayer {
  /** `part`: the part wanted of the first notification after `after` if it comes in parts (0: the first). */
  ask(station: string, after: number, limit: number, part?: number): Promise<ReplayPage>;
  /** A message on a station's `response/replay_notifications`. */
  answer(payload: string): void;
  /** Fails every open question (on stop). */
  cancel(): void;
}

export function replayer(
  publish: (topic: string, payload: string) => Promise<void>,
  tag: string,
  timeoutMs: number,
): Replayer {
  const waiting = new Map<string, Waiting>();
  let counter = 0;
  return {
    ask(station, after, limit, part = 0) {
      const transaction = `${tag}-${Date.now().toString(36)}-${++counter}`;
      return new Promise<ReplayPage>((ok, fail) => {
        const timer = setTimeout(() => {
          waiting.delete(transaction);
          fail(new Error(`no answer from ${station} in ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.set(transaction, { ok, fail, timer });
        const body = JSON.stringify({ transaction, after, limit, part });
        publish(topicOf(station, `request/${REPLAY}`), body).catch((e: Error) => {
          clearTimeout(timer);
          waiting.delete(transaction);
          fail(e);
        });
      });
    },
    answer(payload) {
      let message: { transaction?: unknown; status?: unknown; data?: unknown; error?: unknown };
      try {
        message = JSON.parse(payload);
      } catch {
        return;
      }
      const w = typeof message.transaction === "string" ? waiting.get(message.transaction) : undefined;
      if (!w || typeof message.transaction !== "string") return; // another consumer's answer
      waiting.delete(message.transaction);
      clearTimeout(w.timer);
      const page = message.status === "ok" ? asPage(message.data) : null;
      if (page) w.ok(page);
      else w.fail(new Error(`replay refused: ${JSON.stringify(message.error ?? message.data)}`));
    },
    cancel() {
      for (const [transaction, w] of waiting) {
        clearTimeout(w.timer);
        w.fail(new Error("stopped"));
        waiting.delete(transaction);
      }
    },
  };
}

/** The answer's `data`, checked: a page the consumer can trust, or null. */
function asPage(data: unknown): ReplayPage | null {
  const d = data as Partial<ReplayPage> | null;
  if (!d || !Array.isArray(d.notifications) || typeof d.more !== "boolean") return null;
  if (typeof d.next_after !== "number" || typeof d.last_seq !== "number") return null;
  const ok = d.notifications.every((n) => Number.isSafeInteger(n?.seq) && typeof n?.payload === "string");
  if (!ok) return null;
  if (
    d.skipped !== undefined &&
    !(Array.isArray(d.skipped) && d.skipped.every((x) => Number.isSafeInteger(x?.seq)))
  )
    return null;
  const p = d.part;
  if (
    p !== undefined &&
    !(
      Number.isSafeInteger(p?.seq) &&
      Number.isSafeInteger(p?.index) &&
      Number.isSafeInteger(p?.count) &&
      p.index < p.count &&
      typeof p?.payload === "string"
    )
  )
    return null;
  const first = typeof d.first_available_seq === "number" ? d.first_available_seq : null;
  return { ...(d as ReplayPage), first_available_seq: first };
}
