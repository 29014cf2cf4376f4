/**
 * Retained full-state messages (docs/mqtt.md#retained-state; the messages: retained-messages.ts). All of
 * them are republished on every connect, because a broker without persistence loses retained messages
 * when it restarts, then each is published again when the event bus says it changed. Changes that arrive
 * while offline are not queued: the next connect republishes everything anyway.
 */
import type { Logger } from "pino";
import type { Link } from "./link.js";
import {
  everything,
  publishWindowed,
  type RequestKey,
  type RetainedMessage,
  type RetainedSources,
  requestMessage,
  requestMessages,
  stationMessage,
} from "./retained-messages.js";

export interface RetainedStateDeps extends RetainedSources {
  /** Changes remembered while a flush runs; above this, everything is republished instead. */
  maxDirty: number;
  /**
   * `state/station` is also republished this often, so device health and its timestamp stay fresh
   * without an event for each (VDA 5050 sends its state "at least every 30 seconds";
   * docs/mqtt.md#retained-state).
   */
  stationRefreshMs: number;
  /** How often final requests are looked through for retained state due to be cleared. */
  sweepMs: number;
  /**
   * New notifications republish `state/station` (its `lastNotificationSeq`) at most this often: the last
   * one of a burst is announced within this time, without a station message per notification.
   */
  highWaterMs: number;
  log: Logger;
}

/** What changed since it was last published. */
interface Changes {
  station: boolean;
  /** Requests by their state topic. */
  requests: Map<string, RequestKey>;
  /** More changes than `maxDirty`: everything is republished instead. */
  resync: boolean;
}

function clear(changes: Changes): void {
  changes.station = false;
  changes.requests.clear();
}

/** The changed messages, each forgotten as it is taken. */
function* changed(src: RetainedSources, changes: Changes): Generator<RetainedMessage> {
  if (changes.station) {
    changes.station = false;
    yield stationMessage(src);
  }
  const source = src.requests;
  for (const [topic, key] of changes.requests) {
    changes.requests.delete(topic);
    if (source) yield requestMessage(src, source, key);
  }
}

/**
 * Everything first when `all` (the station's state, `stationDone` once it is written, then each
 * request's once it is acknowledged), then what changed meanwhile, until nothing is left or the link
 * is down.
 */
async function publish(
  src: RetainedSources,
  changes: Changes,
  l: Link,
  all: boolean,
  stationDone?: () => void,
): Promise<void> {
  if (all) {
    changes.resync = false;
    clear(changes);
    // the notifications are written right behind state/station, not after its PUBACK: the broker
    // takes them in that order, and a failover waits for one round trip (docs/mqtt.md#a-clustered-broker)
    const station = publishWindowed(l, [stationMessage(src)], 1);
    try {
      stationDone?.();
    } finally {
      await station; // awaited even when stationDone throws, so its failure is never left unhandled
    }
    await publishWindowed(l, requestMessages(src), src.window);
  }
  while (l.up && (changes.resync || changes.station || changes.requests.size > 0)) {
    await publishWindowed(l, changes.resync ? everything(src) : changed(src, changes), src.window);
    if (changes.resync) changes.resync = false;
  }
}

export function createRetainedState(deps: RetainedStateDeps) {
  let link: Link | undefined;
  const changes: Changes = { station: false, requests: new Map(), resync: false };
  let running = false;
  let scheduled = false;
  let refresh: NodeJS.Timeout | undefined;
  let sweep: NodeJS.Timeout | undefined;
  let highWater: NodeJS.Timeout | undefined;

  function stopTimers(): void {
    if (refresh) clearInterval(refresh);
    if (sweep) clearInterval(sweep);
    if (highWater) clearTimeout(highWater);
    refresh = undefined;
    sweep = undefined;
    highWater = undefined;
  }

  async function run(l: Link, all: boolean, stationDone?: () => void): Promise<void> {
    running = true;
    try {
      await publish(deps, changes, l, all, stationDone);
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
    /**
     * Republishes every retained state message, `state/station` first, then calls `stationDone` once
     * it is written (the notifications may resume behind it: a long list of requests must not hold them
     * up) before the requests'; resolves once all are acknowledged.
     */
    async attach(l: Link, stationDone?: () => void): Promise<void> {
      link = l;
      await run(l, true, stationDone);
      stopTimers();
      refresh = setInterval(() => this.stationChanged(), deps.stationRefreshMs);
      refresh.unref();
      sweep = setInterval(() => this.sweep(), deps.sweepMs);
      sweep.unref();
    },
    detach(l: Link): void {
      if (link === l) link = undefined;
      stopTimers();
      clear(changes);
    },
    /** Clears the retained state of requests final for long enough (docs/mqtt.md#retained-state). */
    sweep(): void {
      if (!link || changes.resync) return;
      try {
        for (const k of deps.requests?.due?.(deps.window * 4) ?? []) this.requestChanged(k);
      } catch (err) {
        deps.log.warn({ err }, "mqtt: finished requests not looked through; trying again later");
      }
    },
    /** Notifications were produced: `state/station` follows within `highWaterMs` (one timer at a time). */
    notificationsProduced(): void {
      if (!link || highWater) return;
      highWater = setTimeout(() => {
        highWater = undefined;
        this.stationChanged();
      }, deps.highWaterMs);
      highWater.unref();
    },
    stationChanged(): void {
      if (!link) return;
      changes.station = true;
      schedule();
    },
    requestChanged(key: RequestKey): void {
      if (!link || !deps.requests) return;
      const topic = deps.topics.requestState(key.type, key.externalServiceRequestId);
      if (changes.requests.size >= deps.maxDirty && !changes.requests.has(topic)) {
        changes.requests.clear();
        changes.resync = true;
      } else if (!changes.resync) changes.requests.set(topic, key);
      schedule();
    },
  };
}

export type RetainedState = ReturnType<typeof createRetainedState>;
