/**
 * The stations one consumer instance is in charge of, whatever carries their messages (MQTT in
 * consumer.ts, RabbitMQ queues in amqp-consumer.ts): a StationStream each, what becomes deliverable
 * handed to the sink in order and then stored as the position, gaps repaired by replay page by page.
 * What it guarantees is in this folder's README ("Guarantees").
 */
import { ReplayedParts, StationParts } from "./parts.js";
import type { Positions } from "./positions.js";
import type { Replayer, ReplayPage } from "./replay.js";
import { type Notification, StationStream, type StreamOptions } from "./station-stream.js";
import { seqOfId } from "./topics.js";

export interface Delivery {
  station: string;
  seq: number;
  /** The envelope exactly as the station published it. */
  payload: string;
}

/** Takes a station's notifications in order; the position is stored only after it returned. */
export type Sink = (batch: Delivery[]) => void;

export type Log = (event: string, fields: Record<string, unknown>) => void;

export interface ConsumerStats {
  delivered: number;
  duplicates: number;
  overflow: number;
  unavailable: number;
  replayRequests: number;
  replayFailures: number;
  stations: number;
}

export interface StationsOptions {
  store: Positions;
  sink: Sink;
  replay: Replayer;
  stream: StreamOptions;
  replayLimit: number;
  log: Log;
  /**
   * Set when replicas share the store (amqp-consumer.ts): this replica's name, stored with each
   * position. A live notification first takes up the stored position when another replica moved the
   * station on (it had the station's queue meanwhile), and a high-water mark counts only for the
   * stations this replica delivered last.
   */
  owner?: string;
}

export class Stations {
  private readonly streams = new Map<string, StationStream>();
  private readonly repairing = new Set<string>();
  private readonly parts: StationParts;
  private readonly totals = { delivered: 0, replayRequests: 0, replayFailures: 0, dropped: 0 };
  private stopped = false;

  constructor(private readonly opts: StationsOptions) {
    this.parts = new StationParts(opts.log);
  }

  /** Starts a station at its stored position (on start, or after another instance moved it on). */
  resume(station: string, delivered: number): void {
    this.streams.set(station, new StationStream(delivered, this.opts.stream));
  }

  has(station: string): boolean {
    return this.streams.has(station);
  }

  names(): string[] {
    return [...this.streams.keys()];
  }

  delivered(station: string): number | undefined {
    return this.streams.get(station)?.delivered;
  }

  stats(): ConsumerStats {
    const sum = (k: "duplicates" | "overflow" | "unavailable") =>
      [...this.streams.values()].reduce((n, s) => n + s.counts[k], 0);
    const { dropped, ...totals } = this.totals;
    return {
      ...totals,
      duplicates: sum("duplicates") + dropped,
      overflow: sum("overflow"),
      unavailable: sum("unavailable"),
      stations: this.streams.size,
    };
  }

  positions(): Map<string, number> {
    return new Map([...this.streams].map(([station, s]) => [station, s.delivered]));
  }

  stop(): void {
    this.stopped = true;
  }

  /**
   * A message of the station's `notification` topic: an envelope, or a part of one, put together first
   * (parts.ts) so that the sink gets the envelope exactly as the station committed it.
   */
  notification(station: string, message: string): void {
    const payload = this.parts.take(station, message);
    if (payload === undefined) return;
    if (this.opts.owner !== undefined) this.takeUp(station);
    let seq: number | null = null;
    try {
      seq = seqOfId((JSON.parse(payload) as { notification_id?: unknown }).notification_id);
    } catch {
      // not JSON: reported below
    }
    if (seq === null) {
      this.opts.log("malformed", { station, payload: payload.slice(0, 200) });
      return;
    }
    this.deliver(station, this.streamOf(station).offer({ seq, payload }, Date.now()));
  }

  /** The station's `state/station`: its high-water mark `lastNotificationSeq`. */
  stationState(station: string, payload: string): void {
    if (payload.length === 0) return; // a cleared retained message
    let mark: unknown;
    try {
      mark = (JSON.parse(payload) as { lastNotificationSeq?: unknown }).lastNotificationSeq;
    } catch {
      this.opts.log("malformed", { station, payload: payload.slice(0, 200) });
      return;
    }
    if (this.opts.owner !== undefined && this.opts.store.get(station)?.owner !== this.opts.owner) return;
    const s = this.streamOf(station);
    if (typeof mark === "number") s.markSeen(mark, Date.now());
  }

  /** Starts the repairs that are due (called every 100 ms while the transport is up). */
  tick(): void {
    const now = Date.now();
    for (const [station, s] of this.streams) {
      if (this.repairing.has(station)) continue;
      const after = s.repairDue(now);
      if (after !== null) void this.repair(station, s, after);
    }
  }

  /** Another replica delivered this station further meanwhile: continue from there, not from memory. */
  private takeUp(station: string): void {
    const stored = this.opts.store.get(station);
    const s = this.streams.get(station);
    if (stored && (!s || stored.seq > s.delivered)) this.resume(station, stored.seq);
  }

  private streamOf(station: string): StationStream {
    let s = this.streams.get(station);
    if (!s) {
      // A new station: its notifications from now on; what came before is fetched by replay.
      s = new StationStream(0, this.opts.stream);
      this.streams.set(station, s);
      this.opts.log("station", { station });
    }
    return s;
  }

  private deliver(station: string, run: Notification[]): void {
    const fresh = this.opts.owner === undefined ? run : this.notYetHanded(station, run);
    if (fresh.length === 0) return;
    this.opts.sink(fresh.map((n) => ({ station, seq: n.seq, payload: n.payload })));
    this.opts.store.save(station, (fresh.at(-1) as Notification).seq, this.opts.owner);
    this.totals.delivered += fresh.length;
  }

  /**
   * With replicas sharing the store: what another replica has not handed on meanwhile. A repair this
   * replica started may answer after the station's queue moved to another replica, which delivered
   * further; those are dropped (counted as duplicates) and the station continues from the stored seq.
   */
  private notYetHanded(station: string, run: Notification[]): Notification[] {
    const stored = this.opts.store.get(station);
    if (!stored || stored.owner === this.opts.owner || run.length === 0) return run;
    const fresh = run.filter((n) => n.seq > stored.seq);
    this.totals.dropped += run.length - fresh.length;
    if (fresh.length === 0 && (this.streams.get(station)?.delivered ?? 0) < stored.seq)
      this.resume(station, stored.seq);
    return fresh;
  }

  /** Pages of the replay until the station says there is no more, or an attempt fails. */
  private async repair(station: string, s: StationStream, after: number): Promise<void> {
    this.repairing.add(station);
    this.opts.log("gap", { station, after, to: s.repairTarget, newest: s.newest });
    try {
      // Pages until the hole is filled (the live stream brings what follows it) or the station has no more.
      const target = s.repairTarget;
      // a notification too large for an answer comes one part a page (docs/mqtt.md#large-notifications-by-replay)
      const parts = new ReplayedParts(station, this.opts.log);
      for (let page: ReplayPage | null = null; !this.stopped && (page === null || page.more); ) {
        this.totals.replayRequests++;
        const part = page ? ReplayedParts.next(page) : 0;
        page = await this.opts.replay.ask(
          station,
          page ? page.next_after : after,
          this.opts.replayLimit,
          part,
        );
        if (this.streams.get(station) !== s) return; // moved on by another instance meanwhile
        this.takePage(station, s, parts.take(page));
        const empty = page.notifications.length + (page.skipped?.length ?? 0) === 0 && !page.part;
        if (empty || s.delivered >= target) break;
      }
    } catch (e) {
      this.totals.replayFailures++;
      s.repairFailed(Date.now());
      if (!this.stopped) this.opts.log("replay_failed", { station, error: (e as Error).message });
    } finally {
      this.repairing.delete(station);
    }
  }

  /** One page: what it makes deliverable goes to the sink, in order (StationStream.takePage). */
  private takePage(station: string, s: StationStream, page: ReplayPage): void {
    const before = s.counts.unavailable;
    this.deliver(station, s.takePage(page, Date.now()));
    if (s.counts.unavailable > before)
      this.opts.log("unavailable", { station, skipped: s.counts.unavailable - before });
  }
}
