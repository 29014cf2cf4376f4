/**
 * Central's exchanges and queues on a RabbitMQ cluster (docs/mqtt.md, "Central on a clustered broker"),
 * declared by every replica when it connects (declaring what exists is a no-op):
 *
 *   amq.topic ──ppsedge.v1.<site>.*.notification──▶ ppsedge.notifications.<site> (x-consistent-hash)
 *     ──weight 1 each──▶ ppsedge.notifications.<site>.0 … .<n-1> (quorum, single active consumer)
 *
 * - The MQTT plugin publishes every MQTT message to `amq.topic` with the topic as routing key, `/`
 *   written `.` and `.` written `/` (https://www.rabbitmq.com/mqtt.html, "Topic level separator").
 *   Only the notification topic is bound: `connection` and `state/…` never reach these queues.
 * - The consistent-hash exchange (plugin rabbitmq_consistent_hash_exchange,
 *   https://github.com/rabbitmq/rabbitmq-server/tree/main/deps/rabbitmq_consistent_hash_exchange) hashes
 *   the routing key, which names the station, so all of a station's notifications go to one queue, in
 *   the order the station published them.
 * - Quorum queues are replicated on every node and confirm a message only once a majority has it
 *   (https://www.rabbitmq.com/quorum-queues.html), so a node's death loses nothing the MQTT plugin had
 *   acknowledged; `x-single-active-consumer` (https://www.rabbitmq.com/consumers.html#single-active-consumer)
 *   lets any number of replicas consume one queue, one at a time, and hands it to the next when the
 *   active one goes away: per-station order across replicas, fail-over by the broker.
 */
import type { Connection } from "rabbitmq-client";

export const exchangeOf = (site: string): string => `ppsedge.notifications.${site}`;
export const queueOf = (site: string, partition: number): string => `${exchangeOf(site)}.${partition}`;

/** The arguments every partition queue is declared with (the same on each declare, or RabbitMQ refuses). */
export const PARTITION_QUEUE = {
  durable: true,
  arguments: { "x-queue-type": "quorum", "x-single-active-consumer": true },
} as const;

/**
 * Each replica's own queue, for the replay answers and the stations' `state/station`: a quorum queue
 * too, gone after 10 minutes without a consumer. Every station's `state/station` is routed to it; when
 * it was a classic queue, it died with its node, and RabbitMQ 3.10 NACKs a publish routed to a queue on
 * a dead node, which its MQTT plugin answers by closing the station's connection (docs/mqtt.md#rabbitmq):
 * one node's death closed the connections of stations on every node, not only the dead one's. A quorum
 * queue keeps a majority on the surviving nodes.
 */
export const ownQueueOf = (site: string, replica: string): string => `ppsedge.central.${site}.${replica}`;
/**
 * What it holds is stale within a minute (a replay answer is waited for 5 s, every station republishes
 * `state/station` at least every 30 s), so while its replica is down it keeps no more than that: at
 * most a minute of messages and 10,000 of them, the oldest dropped first. Unbounded, a 10-minute stop of
 * central at 500 stations would leave about 150,000 stale high-water marks per replica to read on its
 * return.
 */
export const OWN_QUEUE = {
  durable: true,
  arguments: {
    "x-queue-type": "quorum",
    "x-expires": 600_000,
    "x-message-ttl": 60_000,
    "x-max-length": 10_000,
  },
} as const;

/** MQTT topic → AMQP routing key as the MQTT plugin maps them: `/` and `.` swap places. */
export function routingKeyOf(topic: string): string {
  return topic.replace(/[./]/g, (c) => (c === "/" ? "." : "/"));
}

/** AMQP routing key → MQTT topic (the same swap). */
export const topicOfKey = routingKeyOf;

export async function declareTopology(rabbit: Connection, site: string, partitions: number): Promise<void> {
  const exchange = exchangeOf(site);
  await rabbit.exchangeDeclare({ exchange, type: "x-consistent-hash", durable: true });
  await rabbit.exchangeBind({
    source: "amq.topic",
    destination: exchange,
    routingKey: routingKeyOf(`ppsedge/v1/${site}/+/notification`).replace("+", "*"),
  });
  for (let i = 0; i < partitions; i++) {
    const queue = queueOf(site, i);
    await rabbit.queueDeclare({ queue, ...PARTITION_QUEUE });
    // with a consistent-hash exchange the binding key is the queue's weight in the hash ring
    await rabbit.queueBind({ queue, exchange, routingKey: "1" });
  }
}
