/**
 * What a connection is opened with: the settings the agent's configuration gives, and the mqtt.js
 * options built from them afresh for each connection, with the Will that says CONNECTION_BROKEN
 * (docs/mqtt.md#connection-will-and-session-numbers). Types only from mqtt: this module loads nothing.
 */
import type { IClientOptions } from "mqtt";
import type { Logger } from "pino";
import { formatTimestamp } from "../domain/timestamp.js";
import type { Topics } from "./topics.js";

export interface ConnectionOptions {
  /** The broker's address, then the other nodes of its cluster (docs/mqtt.md#a-clustered-broker). */
  urls: readonly string[];
  clientId: string;
  protocolVersion: 4 | 5;
  keepaliveSeconds: number;
  connectTimeoutMs: number;
  reconnectMinMs: number;
  reconnectMaxMs: number;
  /** The longest reconnect step while connections keep being lost soon after they were made. */
  reconnectFlappingMaxMs: number;
  /**
   * On a later address of `urls`, how long an earlier one must answer before the station returns to it
   * (docs/mqtt.md#a-clustered-broker); 0: it stays on the node in use until that is lost.
   */
  failbackAfterMs: number;
  username?: string | undefined;
  password?: string | undefined;
  tls?: { ca?: Buffer | undefined; cert?: Buffer | undefined; key?: Buffer | undefined };
  topics: Topics;
  subscriptions: string[];
  /** The subscriptions' QoS (`mqtt.requestQos`). */
  subscriptionQos: 0 | 1;
  nextSession(): number;
  now(): number;
  log: Logger;
}

export type ConnectionState = "ONLINE" | "OFFLINE" | "CONNECTION_BROKEN";

/** The retained `connection` message: the state, the session it belongs to, and when (epoch ms `now`). */
export function connectionPayload(state: ConnectionState, session: number, now: number): string {
  return JSON.stringify({ state, session, timestamp: formatTimestamp(now) });
}

/** A fresh options object for each connection, so nothing of a broken one leaks into the next. */
export function clientOptions(opts: ConnectionOptions, url: string, session: number): IClientOptions {
  const o: IClientOptions = {
    clientId: opts.clientId,
    protocolVersion: opts.protocolVersion,
    // The outbox is the durable queue, not the broker session
    // (docs/mqtt.md#connection-will-and-session-numbers).
    clean: true,
    keepalive: opts.keepaliveSeconds,
    connectTimeout: opts.connectTimeoutMs,
    reconnectPeriod: 0,
    queueQoSZero: false,
    resubscribe: false,
    // mqtt-packet would otherwise pre-build 65,536 packet-id buffers (several MB kept for the process).
    writeCache: false,
    will: {
      topic: opts.topics.connection,
      payload: Buffer.from(connectionPayload("CONNECTION_BROKEN", session, opts.now())),
      qos: 1,
      retain: true,
    },
  };
  if (opts.username !== undefined) o.username = opts.username;
  if (opts.password !== undefined) o.password = opts.password;
  if (opts.tls?.ca) o.ca = opts.tls.ca;
  if (opts.tls?.cert) o.cert = opts.tls.cert;
  if (opts.tls?.key) o.key = opts.tls.key;
  if (url.startsWith("mqtts:")) o.rejectUnauthorized = true;
  return o;
}
