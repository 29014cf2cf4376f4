import type { Logger } from "pino";
import type { Link } from "./link.js";
import type { Topics } from "./topics.js";

export interface RequestKey {
  type: string;
  externalServiceRequestId: string;
}

export interface RequestSnapshots {
  /** The full current service request, or undefined when it no longer exists (its retained message is cleared). */
  snapshot(type: string, externalServiceRequestId: string): object | undefined;
  /** The requests whose retained state is kept on the broker, a page at a time (never all in memory). */
  list(after: number, limit: number): Array<RequestKey & { cursor: number }>;
}

export interface RetainedStateDeps {
  topics: Topics;
  /** Mode, seats, bins, devices and their health (DESIGN.md §5 `state/station`). */
  stationSnapshot(): object;
  /** Absent until service requests exist on this station: then only `state/station` is kept. */
  requests?: RequestSnapshots | undefined;
  window: number;
  /** Changes remembered while a flush runs; above this, everything is republished instead. */
  maxDirty: number;
  /**
   * `state/station` is also republished this often, so device health and its timestamp stay fresh
   * without an event for each (VDA 5050 sends its state "at least every 30 seconds"; mqtt.md a.3).
   */
  stationRefreshMs: number;
  log: Logger;
}

/** Publishes many retained messages with at most `window` unacknowledged; throws if the link breaks. */
async function publishWindowed(link: Link, items: Iterable<[string, string]>, window: number): Promise<void> {
  const inflight = new Set<Promise<void>>();
  let failed: unknown;
  for (const [topic, payload] of items) {
    if (failed !== undefined || !link.up) break;
    const p: Promise<void> = link.publishAsync(topic, payload, true).then(
      () => {
        inflight.delete(p);
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

/**
 * Retained full-state messages (DESIGN.md §5; reference/mqtt.md a.4): `state/station` and
 * `state/<type>/<externalServiceRequestId>`. All of them are republished on every connect, because a
 * broker without persistence loses retained messages when it restarts (c.9), then each is published
 * again when the event bus says it changed. Changes that arrive while offline are not queued: the next
 * connect republishes everything anyway.
 */
export function createRetainedState(deps: RetainedStateDeps) {
  let link: Link | undefined;
  let stationDirty = false;
  const dirty = new Map<string, RequestKey>();
  let resync = false;
  let running = false;
  let scheduled = false;
  let refresh: NodeJS.Timeout | undefined;

  const stationMessage = (): [string, string] => [
    deps.topics.stationState,
    JSON.stringify(deps.stationSnapshot()),
  ];
  const requestMessage = (source: RequestSnapshots, k: RequestKey): [string, string] => {
    const snapshot = source.snapshot(k.type, k.externalServiceRequestId);
    // An empty retained message clears the topic (MQTT 3.1.1 §3.3.1.3).
    return [
      deps.topics.requestState(k.type, k.externalServiceRequestId),
      snapshot === undefined ? "" : JSON.stringify(snapshot),
    ];
  };

  function* everything(): Generator<[string, string]> {
    yield stationMessage();
    const source = deps.requests;
    if (!source) return;
    let after = 0;
    const page = Math.max(deps.window, 100);
    for (;;) {
      const keys = source.list(after, page);
      for (const k of keys) yield requestMessage(source, k);
      const last = keys[keys.length - 1];
      if (!last || keys.length < page) return;
      after = last.cursor;
    }
  }

  function* changed(): Generator<[string, string]> {
    if (stationDirty) {
      stationDirty = false;
      yield stationMessage();
    }
    const source = deps.requests;
    for (const [topic, key] of dirty) {
      dirty.delete(topic);
      if (source) yield requestMessage(source, key);
    }
  }

  async function run(l: Link, all: boolean): Promise<void> {
    running = true;
    try {
      if (all) {
        resync = false;
        stationDirty = false;
        dirty.clear();
        await publishWindowed(l, everything(), deps.window);
      }
      while (l.up && (resync || stationDirty || dirty.size > 0)) {
        await publishWindowed(l, resync ? everything() : changed(), deps.window);
        if (resync) resync = false;
      }
    } finally {
      running = false;
    }
  }

  function schedule(): void {
    if (scheduled || running || !link) return;
    scheduled = true;
    // Deferred: the bus may announce from inside an enclosing transaction that has not committed.
    setImmediate(() => {
      scheduled = false;
      const l = link;
      if (!l || running) return;
      run(l, false).catch((err) => {
        if (l.up) deps.log.warn({ err }, "mqtt: retained state not published; retrying on the next change");
      });
    });
  }

  return {
    /** Republishes every retained state message; resolves once all are acknowledged. */
    async attach(l: Link): Promise<void> {
      link = l;
      await run(l, true);
      if (refresh) clearInterval(refresh);
      refresh = setInterval(() => this.stationChanged(), deps.stationRefreshMs);
      refresh.unref();
    },
    detach(l: Link): void {
      if (link === l) link = undefined;
      if (refresh) clearInterval(refresh);
      refresh = undefined;
      stationDirty = false;
      dirty.clear();
    },
    stationChanged(): void {
      if (!link) return;
      stationDirty = true;
      schedule();
    },
    requestChanged(key: RequestKey): void {
      if (!link || !deps.requests) return;
      const topic = deps.topics.requestState(key.type, key.externalServiceRequestId);
      if (dirty.size >= deps.maxDirty && !dirty.has(topic)) {
        dirty.clear();
        resync = true;
      } else if (!resync) dirty.set(topic, key);
      schedule();
    },
  };
}

export type RetainedState = ReturnType<typeof createRetainedState>;
