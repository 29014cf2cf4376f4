/**
 * The consumer's AMQP shell, for RabbitMQ (rabbitmq-topology.ts): every replica consumes every
 * partition queue; the broker keeps one consumer active per queue (single active consumer) and moves it
 * to another replica when that one goes away, so no partitioning of our own is needed. The replicas
 * share one positions file: a replica that takes a queue over continues each station from where the
 * previous one stored it (stations.ts, `owner`). Gaps are repaired as on MQTT, by the station's
 * `request/replay_notifications`, sent through `amq.topic` (the MQTT plugin delivers it to the station)
 * with the answers, and the stations' `state/station` high-water marks, on a queue of this replica's own.
 * What it guarantees is in this folder's README ("Guarantees", "RabbitMQ").
 */
import {
  type Consumer as AmqpConsumer,
  type AsyncMessage,
  Connection,
  type Publisher,
} from "rabbitmq-client";
import { openPositions, type Positions } from "./positions.js";
import {
  declareTopology,
  OWN_QUEUE,
  ownQueueOf,
  PARTITION_QUEUE,
  queueOf,
  routingKeyOf,
  topicOfKey,
} from "./rabbitmq-topology.js";
import { type Replayer, replayer } from "./replay.js";
import { DEFAULT_STREAM, type StreamOptions } from "./station-stream.js";
import { type ConsumerStats, type Log, type Sink, Stations } from "./stations.js";
import { parseTopic, REPLAY, stationStates, topicOf } from "./topics.js";

export interface AmqpConsumerOptions {
  /** `amqp://user:password@host:port` of every node; the client connects to one and moves on when it is lost. */
  urls: string[];
  site: string;
  /** How many partition queues (the same for every replica). */
  partitions: number;
  /** This replica's name: unique among the replicas, stable across its restarts. */
  replica: string;
  /** The SQLite file with the position per station, shared by the replicas. */
  statePath: string;
  sink: Sink;
  /** How many messages a queue hands over before they are acknowledged. */
  prefetch?: number;
  stream?: Partial<StreamOptions>;
  replayLimit?: number;
  replayTimeoutMs?: number;
  log?: Log;
}

export interface AmqpCentralConsumer {
  readonly replica: string;
  stats(): ConsumerStats;
  positions(): Map<string, number>;
  stop(): Promise<void>;
}

const TICK_MS = 100;

const text = (m: AsyncMessage): string =>
  Buffer.isBuffer(m.body)
    ? m.body.toString("utf8")
    : typeof m.body === "string"
      ? m.body
      : JSON.stringify(m.body);

export async function startAmqpConsumer(opts: AmqpConsumerOptions): Promise<AmqpCentralConsumer> {
  const log = opts.log ?? (() => {});
  const first = new URL(opts.urls[0] as string);
  const rabbit = new Connection({
    hosts: opts.urls.map((u) => new URL(u).host),
    username: decodeURIComponent(first.username || "guest"),
    password: decodeURIComponent(first.password || "guest"),
    // back on another node within a second or two of losing one
    retryLow: 200,
    retryHigh: 2000,
    connectionTimeout: 5000,
    heartbeat: 5,
    connectionName: `central-${opts.replica}`,
  });
  rabbit.on("error", (e) => log("amqp_error", { error: (e as Error).message }));
  rabbit.on("connection", () => log("connected", { replica: opts.replica }));
  await declareTopology(rabbit, opts.site, opts.partitions);

  const store: Positions = openPositions(opts.statePath);
  const publisher: Publisher = rabbit.createPublisher({ confirm: true, maxAttempts: 2 });
  const replay: Replayer = replayer(
    (topic, payload) => publisher.send({ exchange: "amq.topic", routingKey: routingKeyOf(topic) }, payload),
    `central-${opts.replica}`,
    opts.replayTimeoutMs ?? 5000,
  );
  const stations = new Stations({
    store,
    sink: opts.sink,
    replay,
    stream: { ...DEFAULT_STREAM, ...opts.stream },
    replayLimit: opts.replayLimit ?? 500,
    log,
    owner: opts.replica,
  });

  const consumers: AmqpConsumer[] = [];
  for (let i = 0; i < opts.partitions; i++) {
    const queue = queueOf(opts.site, i);
    // The handler is synchronous and takes one message at a time: the queue's order is the order handed on.
    const c = rabbit.createConsumer(
      { queue, queueOptions: PARTITION_QUEUE, qos: { prefetchCount: opts.prefetch ?? 200 }, concurrency: 1 },
      (m) => {
        const t = parseTopic(topicOfKey(m.routingKey));
        if (t?.kind === "notification") stations.notification(t.station, text(m));
      },
    );
    c.on("error", (e) => log("consumer_error", { queue, error: (e as Error).message }));
    consumers.push(c);
  }
  // This replica's own queue for the replay answers and the high-water marks (OWN_QUEUE: why a quorum queue)
  const own = rabbit.createConsumer(
    {
      queue: ownQueueOf(opts.site, opts.replica),
      queueOptions: OWN_QUEUE,
      queueBindings: [
        { exchange: "amq.topic", routingKey: routingKeyOf(topicOf(`${opts.site}/*`, `response/${REPLAY}`)) },
        { exchange: "amq.topic", routingKey: routingKeyOf(stationStates(opts.site)).replace("+", "*") },
      ],
      noAck: true,
    },
    (m) => {
      const t = parseTopic(topicOfKey(m.routingKey));
      if (t?.kind === "state/station") stations.stationState(t.station, text(m));
      else if (t) replay.answer(text(m));
    },
  );
  own.on("error", (e) => log("consumer_error", { queue: "own", error: (e as Error).message }));
  const ticker = setInterval(() => rabbit.ready && stations.tick(), TICK_MS);

  return {
    replica: opts.replica,
    stats: () => stations.stats(),
    positions: () => stations.positions(),
    async stop() {
      stations.stop();
      clearInterval(ticker);
      replay.cancel();
      await Promise.all([...consumers, own].map((c) => c.close()));
      await publisher.close();
      await rabbit.close();
      store.close();
    },
  };
}
