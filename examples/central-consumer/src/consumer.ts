/**
 * The consumer's MQTT shell: one persistent session at the central broker, the stations of this
 * instance's partition, their notifications in per-station order to the sink, gaps repaired by replay,
 * positions in SQLite. What it guarantees is in this folder's README ("Guarantees").
 */
import mqtt, { type MqttClient } from "mqtt";
import { checkPartition, owns, type Partition } from "./partition.js";
import { openPositions, type Positions } from "./positions.js";
import { type Replayer, replayer } from "./replay.js";
import { DEFAULT_STREAM, type StreamOptions } from "./station-stream.js";
import { type ConsumerStats, type Log, type Sink, Stations } from "./stations.js";
import { parseTopic, siteFilters } from "./topics.js";

export type { ConsumerStats, Delivery, Log, Sink } from "./stations.js";

export interface ConsumerOptions extends Partial<Partition> {
  /** The broker, or a cluster's nodes comma-separated: after a lost connection the next one is tried. */
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
  /** 5 (default), or 4 for brokers that speak MQTT 3.1.1 only (NATS; docs/mqtt.md#nats). */
  protocolVersion?: 4 | 5;
  stream?: Partial<StreamOptions>;
  replayLimit?: number;
  replayTimeoutMs?: number;
  /**
   * A connection that brings no message at all for this long while stations are known is dropped and
   * made again (default 90 s: every station republishes `state/station` at least every 30 s;
   * docs/mqtt.md#nats, where a connection was seen to stay up and bring nothing after a node's death).
   */
  silenceMs?: number;
  /**
   * How long a SUBSCRIBE may wait for its SUBACK, with nothing else arriving either, before the
   * connection is made again (15 s).
   */
  subackTimeoutMs?: number;
  log?: Log;
}

/** What the MQTT shell adds: connections it dropped and made again, SUBACKs that refused. */
export interface ConnectionTrouble {
  redials: number;
  refusedSubscriptions: number;
}

export interface Consumer {
  readonly clientId: string;
  stats(): ConsumerStats & ConnectionTrouble;
  /** Delivered seq per station of this instance. */
  positions(): Map<string, number>;
  stop(): Promise<void>;
}

const TICK_MS = 100;
/** A refused subscription is asked again this much later, on the same connection. */
const RESUBSCRIBE_MS = 2000;

export function startConsumer(opts: ConsumerOptions): Consumer {
  return new CentralConsumer(opts);
}

class CentralConsumer implements Consumer {
  readonly clientId: string;
  private readonly part: Partition;
  private readonly log: Log;
  private readonly store: Positions;
  private readonly stations: Stations;
  private readonly client: MqttClient;
  private readonly replay: Replayer;
  private readonly ticker: NodeJS.Timeout;
  /** The connection's start or its last message, whichever is later: what the silence watchdog reads. */
  private heardAt = Date.now();
  private readonly trouble: ConnectionTrouble = { redials: 0, refusedSubscriptions: 0 };
  private subscribeTimer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: ConsumerOptions) {
    this.part = checkPartition({ instance: opts.instance ?? 0, instances: opts.instances ?? 1 });
    this.clientId =
      opts.clientId ?? `central-consumer-${opts.site}-${this.part.instance}of${this.part.instances}`;
    this.log = opts.log ?? (() => {});
    this.store = openPositions(opts.statePath);
    const urls = opts.url.split(",").map((u) => u.trim());
    this.client = mqtt.connect(urls[0] as string, {
      clientId: this.clientId,
      // mqtt.js takes the next of `servers` on each reconnect
      ...(urls.length > 1 ? { servers: urls.map(serverOf) } : {}),
      // A persistent session: while the consumer is away (not the broker), the broker keeps its
      // subscriptions and queues its QoS 1 messages for up to the session expiry (MQTT 5 §3.1.2.11.2).
      clean: false,
      // MQTT 3.1.1 has no expiry: the broker keeps the session until the consumer returns (§3.1.2.4)
      ...(opts.protocolVersion === 4
        ? { protocolVersion: 4 as const }
        : {
            protocolVersion: 5 as const,
            properties: { sessionExpiryInterval: opts.sessionExpirySeconds ?? 3600 },
          }),
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
    this.stations = new Stations({
      store: this.store,
      sink: opts.sink,
      replay: this.replay,
      stream: { ...DEFAULT_STREAM, ...opts.stream },
      replayLimit: opts.replayLimit ?? 500,
      log: this.log,
    });
    for (const [station, seq] of this.store.all())
      if (owns(this.part, station)) this.stations.resume(station, seq);
    this.client.on("connect", (connack) => this.onConnect(connack.sessionPresent));
    this.client.on("close", () => clearTimeout(this.subscribeTimer));
    this.client.on("error", (e) => this.log("mqtt_error", { error: e.message }));
    this.client.on("message", (topic, buf) => this.onMessage(topic, buf.toString("utf8")));
    this.ticker = setInterval(() => this.tick(), TICK_MS);
  }

  stats(): ConsumerStats & ConnectionTrouble {
    return { ...this.stations.stats(), ...this.trouble };
  }

  positions(): Map<string, number> {
    return this.stations.positions();
  }

  async stop(): Promise<void> {
    this.stations.stop();
    clearInterval(this.ticker);
    clearTimeout(this.subscribeTimer);
    this.replay.cancel();
    await this.client.endAsync();
    this.store.close();
  }

  private tick(): void {
    if (!this.client.connected) return;
    this.stations.tick();
    const silence = this.opts.silenceMs ?? 90_000;
    // the station list is looked at only once the connection has been silent that long
    if (Date.now() - this.heardAt > silence && this.stations.names().length > 0) {
      this.log("silent", { ms: Date.now() - this.heardAt });
      this.redial();
    }
  }

  /**
   * Subscribed again on every connect, session or not: a broker restarted without persistence has
   * forgotten it, and a cluster may keep a session whose subscriptions no longer deliver.
   */
  private onConnect(sessionPresent: boolean): void {
    this.heardAt = Date.now();
    this.log("connected", {
      clientId: this.clientId,
      sessionPresent,
      stations: this.stations.names().length,
    });
    this.subscribeAll();
  }

  /**
   * A SUBACK that refuses a filter (0x80) is not a subscription: asked again shortly. One that does not
   * come while nothing else does either means a connection that no longer works: made again. (A broker
   * may send a persistent session's queued messages before the SUBACK; while they flow, it waits.)
   */
  private subscribeAll(): void {
    const filters = siteFilters(this.opts.site);
    const client = this.client;
    const limit = this.opts.subackTimeoutMs ?? 15_000;
    const since = Date.now();
    const check = (): void => {
      const quiet = Date.now() - Math.max(since, this.heardAt);
      if (quiet < limit) {
        this.subscribeTimer = setTimeout(check, limit - quiet);
        return;
      }
      this.log("subscribe_timeout", { filters: filters.length });
      this.redial();
    };
    clearTimeout(this.subscribeTimer);
    this.subscribeTimer = setTimeout(check, limit);
    client.subscribe(filters, { qos: 1 }, (err) => {
      clearTimeout(this.subscribeTimer);
      if (!err) return this.log("subscribed", { filters: filters.length });
      if (!client.connected) return; // the connection went: subscribed again on the next
      this.trouble.refusedSubscriptions++;
      this.log("subscribe_refused", { filters: filters.length, error: err.message });
      this.subscribeTimer = setTimeout(() => client.connected && this.subscribeAll(), RESUBSCRIBE_MS);
    });
  }

  /** Drops the connection; mqtt.js makes it again, on the next node of `--url`. */
  private redial(): void {
    this.trouble.redials++;
    this.heardAt = Date.now();
    clearTimeout(this.subscribeTimer);
    this.client.stream?.destroy();
  }

  private onMessage(topic: string, payload: string): void {
    this.heardAt = Date.now();
    const t = parseTopic(topic);
    if (!t || !owns(this.part, t.station)) return; // another instance's station
    if (t.kind === "notification") this.stations.notification(t.station, payload);
    else if (t.kind === "state/station") this.stations.stationState(t.station, payload);
    else this.replay.answer(payload);
  }
}

/** A node of `--url a,b,c` as mqtt.js's `servers` takes it. */
function serverOf(url: string): { host: string; port: number; protocol: "mqtt" | "mqtts" } {
  const u = new URL(url);
  const secure = u.protocol === "mqtts:";
  return {
    host: u.hostname,
    port: Number(u.port || (secure ? 8883 : 1883)),
    protocol: secure ? "mqtts" : "mqtt",
  };
}
