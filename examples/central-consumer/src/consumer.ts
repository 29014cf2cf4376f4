/**
 * The consumer's MQTT shell: one persistent session at the central broker, the stations of this
 * instance's partition, their notifications in per-station order to the sink, gaps repaired by replay,
 * positions in SQLite. What it guarantees is in this folder's README ("Guarantees").
 */
import mqtt, { type MqttClient } from "mqtt";
import { checkPartition, owns, type Partition } from "./partition.js";
import { openPositions, type Positions } from "./positions.js";
import { type Replayer, type ReplayPage, replayer } from "./replay.js";
import { DEFAULT_STREAM, type Notification, StationStream, type StreamOptions } from "./station-stream.js";
import { parseTopic, REPLAY, seqOfId, stationStates, topicOf } from "./topics.js";

export interface Delivery {
  station: string;
  seq: number;
  /** The envelope exactly as the station published it. */
  payload: string;
}

/** Takes a station's notifications in order; the position is stored only after it returned. */
export type Sink = (batch: Delivery[]) => void;

export type Log = (event: string, fields: Record<string, unknown>) => void;

export interface ConsumerOptions extends Partial<Partition> {
  url: string;
  site: string;
  username?: string;
  password?: string;
  /** The SQLite file with the position per station. */
  statePath: string;
  sink: Sink;
  clientId?: string;
  /** MQTT 5 session expiry: how long the broker keeps the session while the consumer is away. */
  sessionExpirySeconds?: number;
  stream?: Partial<StreamOptions>;
  replayLimit?: number;
  replayTimeoutMs?: number;
  log?: Log;
}

export interface ConsumerStats {
  delivered: number;
  duplicates: number;
  overflow: number;
  unavailable: number;
  replayRequests: number;
  replayFailures: number;
  stations: number;
}

export interface Consumer {
  readonly clientId: string;
  stats(): ConsumerStats;
  /** Delivered seq per station of this instance. */
  positions(): Map<string, number>;
  stop(): Promise<void>;
}

const TICK_MS = 100;

export function startConsumer(opts: ConsumerOptions): Consumer {
  return new CentralConsumer(opts);
}

class CentralConsumer implements Consumer {
  readonly clientId: string;
  private readonly part: Partition;
  private readonly log: Log;
  private readonly streamOpts: StreamOptions;
  private readonly store: Positions;
  private readonly streams = new Map<string, StationStream>();
  private readonly repairing = new Set<string>();
  private readonly totals = { delivered: 0, replayRequests: 0, replayFailures: 0 };
  private readonly client: MqttClient;
  private readonly replay: Replayer;
  private readonly ticker: NodeJS.Timeout;
  private stopped = false;

  constructor(private readonly opts: ConsumerOptions) {
    this.part = checkPartition({ instance: opts.instance ?? 0, instances: opts.instances ?? 1 });
    this.clientId =
      opts.clientId ?? `central-consumer-${opts.site}-${this.part.instance}of${this.part.instances}`;
    this.log = opts.log ?? (() => {});
    this.streamOpts = { ...DEFAULT_STREAM, ...opts.stream };
    this.store = openPositions(opts.statePath);
    for (const [station, seq] of this.store.all())
      if (owns(this.part, station)) this.streams.set(station, new StationStream(seq, this.streamOpts));
    this.client = mqtt.connect(opts.url, {
      clientId: this.clientId,
      // A persistent session: while the consumer is away (not the broker), the broker keeps its
      // subscriptions and queues its QoS 1 messages for up to the session expiry (MQTT 5 §3.1.2.11.2).
      clean: false,
      protocolVersion: 5,
      properties: { sessionExpiryInterval: opts.sessionExpirySeconds ?? 3600 },
      reconnectPeriod: 500,
      connectTimeout: 10_000,
      resubscribe: false,
      ...(opts.username === undefined ? {} : { username: opts.username, password: opts.password }),
    });
    this.replay = replayer(
      async (topic, payload) => {
        await this.client.publishAsync(topic, payload, { qos: 1 });
      },
      this.clientId,
      opts.replayTimeoutMs ?? 5000,
    );
    this.client.on("connect", (connack) => this.onConnect(connack.sessionPresent));
    this.client.on("error", (e) => this.log("mqtt_error", { error: e.message }));
    this.client.on("message", (topic, buf) => this.onMessage(topic, buf.toString("utf8")));
    this.ticker = setInterval(() => this.tick(), TICK_MS);
  }

  stats(): ConsumerStats {
    const sum = (k: "duplicates" | "overflow" | "unavailable") =>
      [...this.streams.values()].reduce((n, s) => n + s.counts[k], 0);
    return {
      ...this.totals,
      duplicates: sum("duplicates"),
      overflow: sum("overflow"),
      unavailable: sum("unavailable"),
      stations: this.streams.size,
    };
  }

  positions(): Map<string, number> {
    return new Map([...this.streams].map(([station, s]) => [station, s.delivered]));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.ticker);
    this.replay.cancel();
    await this.client.endAsync();
    this.store.close();
  }

  private stationTopics(station: string): string[] {
    return [topicOf(station, "notification"), topicOf(station, `response/${REPLAY}`)];
  }

  /** Subscribed again on every connect: after a broker restart without persistence the session is gone. */
  private onConnect(sessionPresent: boolean): void {
    const filters = [
      stationStates(this.opts.site),
      ...[...this.streams.keys()].flatMap((s) => this.stationTopics(s)),
    ];
    this.client.subscribe(filters, { qos: 1 });
    this.log("connected", { clientId: this.clientId, sessionPresent, stations: this.streams.size });
  }

  private onMessage(topic: string, payload: string): void {
    const t = parseTopic(topic);
    if (!t || !owns(this.part, t.station)) return; // another instance's station
    if (t.kind === "notification") this.onNotification(t.station, payload);
    else if (t.kind === "state/station") this.onStationState(t.station, payload);
    else this.replay.answer(payload);
  }

  private streamOf(station: string): StationStream {
    let s = this.streams.get(station);
    if (!s) {
      s = new StationStream(0, this.streamOpts);
      this.streams.set(station, s);
      // A new station: its notifications from now on; what came before is fetched by replay.
      if (this.client.connected) this.client.subscribe(this.stationTopics(station), { qos: 1 });
      this.log("station", { station });
    }
    return s;
  }

  private deliver(station: string, run: Notification[]): void {
    if (run.length === 0) return;
    this.opts.sink(run.map((n) => ({ station, seq: n.seq, payload: n.payload })));
    this.store.save(station, (run.at(-1) as Notification).seq);
    this.totals.delivered += run.length;
  }

  private onNotification(station: string, payload: string): void {
    let seq: number | null = null;
    try {
      seq = seqOfId((JSON.parse(payload) as { notification_id?: unknown }).notification_id);
    } catch {
      // not JSON: reported below
    }
    if (seq === null) {
      this.log("malformed", { station, payload: payload.slice(0, 200) });
      return;
    }
    this.deliver(station, this.streamOf(station).offer({ seq, payload }, Date.now()));
  }

  private onStationState(station: string, payload: string): void {
    if (payload.length === 0) return; // a cleared retained message
    let mark: unknown;
    try {
      mark = (JSON.parse(payload) as { lastNotificationSeq?: unknown }).lastNotificationSeq;
    } catch {
      this.log("malformed", { station, payload: payload.slice(0, 200) });
      return;
    }
    const s = this.streamOf(station);
    if (typeof mark === "number") s.markSeen(mark, Date.now());
  }

  private tick(): void {
    if (!this.client.connected) return;
    const now = Date.now();
    for (const [station, s] of this.streams) {
      if (this.repairing.has(station)) continue;
      const after = s.repairDue(now);
      if (after !== null) void this.repair(station, s, after);
    }
  }

  /** Pages of the replay until the station says there is no more, or an attempt fails. */
  private async repair(station: string, s: StationStream, after: number): Promise<void> {
    this.repairing.add(station);
    const limit = this.opts.replayLimit ?? 500;
    this.log("gap", { station, after, to: s.repairTarget, newest: s.newest });
    try {
      // Pages until the hole is filled (the live stream brings what follows it) or the station has no more.
      const target = s.repairTarget;
      for (let page: ReplayPage | null = null; !this.stopped && (page === null || page.more); ) {
        this.totals.replayRequests++;
        page = await this.replay.ask(station, page ? page.next_after : after, limit);
        this.takePage(station, s, page);
        if (page.notifications.length + (page.skipped?.length ?? 0) === 0 || s.delivered >= target) break;
      }
    } catch (e) {
      this.totals.replayFailures++;
      s.repairFailed(Date.now());
      if (!this.stopped) this.log("replay_failed", { station, error: (e as Error).message });
    } finally {
      this.repairing.delete(station);
    }
  }

  /** One page: what it makes deliverable goes to the sink, in order (StationStream.takePage). */
  private takePage(station: string, s: StationStream, page: ReplayPage): void {
    const before = s.counts.unavailable;
    this.deliver(station, s.takePage(page, Date.now()));
    if (s.counts.unavailable > before)
      this.log("unavailable", { station, skipped: s.counts.unavailable - before });
  }
}
