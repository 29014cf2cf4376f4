/**
 * The retained full-state messages (docs/mqtt.md#retained-state): `state/station` and
 * `state/<type>/<externalServiceRequestId>`, each the full current state as a [topic, payload] pair, and
 * how many of them are published with at most one window unacknowledged.
 */
import type { Link } from "./link.js";
import type { Topics } from "./topics.js";

export interface RequestKey {
  type: string;
  externalServiceRequestId: string;
}

export interface RequestSnapshots {
  /**
   * The full current service request, or undefined when its retained message is to be cleared: it does
   * not exist, or it has been final for `mqtt.retainTerminalSeconds`.
   */
  snapshot(type: string, externalServiceRequestId: string): object | undefined;
  /** The requests whose retained state is kept on the broker, a page at a time (never all in memory). */
  list(after: number, limit: number): Array<RequestKey & { cursor: number }>;
  /** What to do once the broker acknowledged clearing a request's retained state (decided now). */
  clearing?(k: RequestKey): () => void;
  /** Final requests whose retained state is due to be cleared, oldest first. */
  due?(limit: number): RequestKey[];
}

/** Where the retained messages come from. */
export interface RetainedSources {
  topics: Topics;
  /** Mode, seats, bins, devices and their health (docs/mqtt.md#topics, `state/station`). */
  stationSnapshot(): object;
  /** Absent until service requests exist on this station: then only `state/station` is kept. */
  requests?: RequestSnapshots | undefined;
  /** Retained messages unacknowledged at once; also the smallest page of requests read. */
  window: number;
  /** A request's state larger than this is retained as its summary (`requestSummary`); unset: no bound. */
  maxStateBytes?: number;
}

/** A retained message: topic, payload, and what to do once the broker acknowledged it. */
export type RetainedMessage = [string, string, (() => void)?];

export function stationMessage(src: RetainedSources): RetainedMessage {
  return [src.topics.stationState, JSON.stringify(src.stationSnapshot())];
}

/**
 * A request's state too large to retain (docs/mqtt.md#retained-state): its top-level plain fields (id,
 * type, status, times …) and `stateTruncated`, which says so; central reads the whole request over
 * HTTP (`GET` of the request). A few such requests must not fill the broker's memory (issue: 151
 * picks of ~1 MB each held 143 MB).
 */
export function requestSummary(snapshot: object, bytes: number, limit: number): object {
  const summary: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(snapshot)) {
    const plain = value === null || typeof value !== "object";
    if (plain && (typeof value !== "string" || value.length <= 256)) summary[key] = value;
  }
  summary.stateTruncated = { bytes, limit };
  return summary;
}

export function requestMessage(
  src: RetainedSources,
  requests: RequestSnapshots,
  k: RequestKey,
): RetainedMessage {
  const topic = src.topics.requestState(k.type, k.externalServiceRequestId);
  const snapshot = requests.snapshot(k.type, k.externalServiceRequestId);
  if (snapshot !== undefined) {
    const full = JSON.stringify(snapshot);
    const limit = src.maxStateBytes ?? Number.POSITIVE_INFINITY;
    const bytes = full.length > limit / 3 ? Buffer.byteLength(full) : full.length;
    if (bytes <= limit) return [topic, full];
    return [topic, JSON.stringify(requestSummary(snapshot, bytes, limit))];
  }
  // An empty retained message clears the topic (MQTT 3.1.1 §3.3.1.3); once acknowledged, it is recorded
  // so a reconnect, also after a restart, does not publish it again.
  return [topic, "", requests.clearing?.(k)];
}

/** Every retained message: the station's, then each request's, a page of requests at a time. */
export function* everything(src: RetainedSources): Generator<RetainedMessage> {
  yield stationMessage(src);
  yield* requestMessages(src);
}

/** Each request's retained message, a page of requests at a time (never all in memory). */
export function* requestMessages(src: RetainedSources): Generator<RetainedMessage> {
  const source = src.requests;
  if (!source) return;
  let after = 0;
  const page = Math.max(src.window, 100);
  for (;;) {
    const keys = source.list(after, page);
    for (const k of keys) yield requestMessage(src, source, k);
    const last = keys[keys.length - 1];
    if (!last || keys.length < page) return;
    after = last.cursor;
  }
}

/** Publishes many retained messages with at most `window` unacknowledged; throws if the link breaks. */
export async function publishWindowed(
  link: Link,
  items: Iterable<RetainedMessage>,
  window: number,
): Promise<void> {
  const inflight = new Set<Promise<void>>();
  let failed: unknown;
  for (const [topic, payload, acked] of items) {
    if (failed !== undefined || !link.up) break;
    const p: Promise<void> = link.publishAsync(topic, payload, true).then(
      () => {
        inflight.delete(p);
        try {
          acked?.();
        } catch (e) {
          failed ??= e;
        }
      },
      (e) => {
        inflight.delete(p);
        failed ??= e;
      },
    );
    inflight.add(p);
    if (inflight.size >= window) await Promise.race(inflight);
  }
  await Promise.all(inflight);
  if (failed !== undefined) throw failed;
  if (!link.up) throw new Error("connection lost while publishing retained state");
}
