import mqtt, {
  type IClientOptions,
  type IClientPublishOptions,
  type IConnackPacket,
  type MqttClient,
} from "mqtt";
import type { Logger } from "pino";
import { formatTimestamp } from "../domain/timestamp.js";
import { backoffDelay, STABLE_CONNECTION_MS } from "./backoff.js";
import type { ConnectionHandlers, Link } from "./link.js";
import { redact } from "./redact.js";
import type { Topics } from "./topics.js";

export interface ConnectionOptions {
  url: string;
  clientId: string;
  protocolVersion: 4 | 5;
  keepaliveSeconds: number;
  connectTimeoutMs: number;
  reconnectMinMs: number;
  reconnectMaxMs: number;
  username?: string | undefined;
  password?: string | undefined;
  tls?: { ca?: Buffer | undefined; cert?: Buffer | undefined; key?: Buffer | undefined };
  topics: Topics;
  subscriptions: string[];
  nextSession(): number;
  now(): number;
  log: Logger;
}

export type ConnectionState = "ONLINE" | "OFFLINE" | "CONNECTION_BROKEN";

/** How long a clean stop waits for OFFLINE to be acknowledged and the DISCONNECT to be written. */
const STOP_TIMEOUT_MS = 2000;

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((ok) => {
    timer = setTimeout(() => ok(undefined), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The mqtt.js client, one per connection (reference/mqtt.md a.3, a.8). mqtt.js's own reconnect is off
 * (`reconnectPeriod: 0`): it has no backoff (c.4) and would replay its in-memory store (c.16); here each
 * connection gets a fresh client with fresh options (c.12), a Will that says CONNECTION_BROKEN with the
 * session number, and ONLINE is published on every connect before anything else (c.8). Nothing is ever
 * queued while disconnected (c.1, c.3): the outbox is the queue.
 */
export function createConnection(opts: ConnectionOptions, handlers: ConnectionHandlers) {
  let stopped = true;
  let client: MqttClient | undefined;
  let link: (Link & { markDown(): void }) | undefined;
  let timer: NodeJS.Timeout | undefined;
  let attempt = 0;
  let upSince: number | undefined;
  let lastError: string | undefined;
  let session = 0;

  const connectionPayload = (state: ConnectionState, s: number) =>
    JSON.stringify({ state, session: s, timestamp: formatTimestamp(opts.now()) });

  function clientOptions(s: number): IClientOptions {
    const o: IClientOptions = {
      clientId: opts.clientId,
      protocolVersion: opts.protocolVersion,
      clean: true, // the outbox is the durable queue, not the broker session (a.8)
      keepalive: opts.keepaliveSeconds,
      connectTimeout: opts.connectTimeoutMs,
      reconnectPeriod: 0,
      queueQoSZero: false,
      resubscribe: false,
      // mqtt-packet would otherwise pre-build 65,536 packet-id buffers (several MB kept for the process).
      writeCache: false,
      will: {
        topic: opts.topics.connection,
        payload: Buffer.from(connectionPayload("CONNECTION_BROKEN", s)),
        qos: 1,
        retain: true,
      },
    };
    if (opts.username !== undefined) o.username = opts.username;
    if (opts.password !== undefined) o.password = opts.password;
    if (opts.tls?.ca) o.ca = opts.tls.ca;
    if (opts.tls?.cert) o.cert = opts.tls.cert;
    if (opts.tls?.key) o.key = opts.tls.key;
    if (opts.url.startsWith("mqtts:")) o.rejectUnauthorized = true;
    return o;
  }

  function makeLink(c: MqttClient, connack: IConnackPacket, s: number): Link & { markDown(): void } {
    let up = true;
    // MQTT 5: say the payload is JSON text (reference/mqtt.md a.2). Built once: this is the hot path.
    const properties = { payloadFormatIndicator: true, contentType: "application/json" };
    const v5 = opts.protocolVersion === 5;
    const plain: IClientPublishOptions = v5
      ? { qos: 1, retain: false, properties }
      : { qos: 1, retain: false };
    const retained: IClientPublishOptions = v5
      ? { qos: 1, retain: true, properties }
      : { qos: 1, retain: true };
    const l: Link & { markDown(): void } = {
      session: s,
      receiveMaximum: connack.properties?.receiveMaximum ?? 65_535,
      maximumPacketSize: connack.properties?.maximumPacketSize,
      get up() {
        return up && c.connected;
      },
      publish(topic, payload, retain, done) {
        if (!l.up) {
          done({ message: "not connected" });
          return;
        }
        c.publish(topic, payload, retain ? retained : plain, (err) => {
          if (!err) done();
          else
            done({
              message: err.message,
              reasonCode: (err as { code?: unknown }).code as number | undefined,
            });
        });
      },
      publishAsync: (topic, payload, retain) =>
        new Promise<void>((ok, fail) =>
          l.publish(topic, payload, retain, (err) =>
            err ? fail(Object.assign(new Error(err.message), { reasonCode: err.reasonCode })) : ok(),
          ),
        ),
      drop(reason) {
        if (!up) return;
        opts.log.warn({ reason, session: s }, "mqtt: dropping the connection");
        c.end(true);
      },
      markDown() {
        up = false;
      },
    };
    return l;
  }

  function connect(): void {
    timer = undefined;
    if (stopped) return;
    session = opts.nextSession();
    const s = session;
    const c = mqtt.connect(opts.url, clientOptions(s));
    client = c;
    c.on("connect", (connack) => {
      if (client !== c || stopped) return;
      upSince = opts.now();
      lastError = undefined;
      const l = makeLink(c, connack, s);
      link = l;
      opts.log.info({ url: redact(opts.url), session: s, clientId: opts.clientId }, "mqtt: connected");
      (async () => {
        for (const filter of opts.subscriptions) await c.subscribeAsync(filter, { qos: 1 });
        await l.publishAsync(opts.topics.connection, connectionPayload("ONLINE", s), true);
        await handlers.onUp(l);
      })().catch((err) => {
        if (!l.up) return; // the connection went away while setting up; close handling follows
        opts.log.error({ err }, "mqtt: connection setup failed");
        l.drop("setup failed");
      });
    });
    c.on("message", (topic, payload) => {
      if (link && client === c) handlers.onMessage(link, topic, payload);
    });
    c.on("error", (err) => {
      lastError = err.message;
      opts.log.warn({ err: err.message, url: redact(opts.url) }, "mqtt: connection error");
    });
    c.on("close", () => onClose(c));
  }

  function onClose(c: MqttClient): void {
    if (client !== c) return;
    client = undefined;
    c.removeAllListeners("connect");
    c.removeAllListeners("message");
    c.end(true);
    const l = link;
    link = undefined;
    if (l) {
      l.markDown();
      if (upSince !== undefined && opts.now() - upSince >= STABLE_CONNECTION_MS) attempt = 0;
      upSince = undefined;
      opts.log.warn({ session: l.session, lastError }, "mqtt: connection lost");
      handlers.onDown(l);
    }
    if (stopped) return;
    const delay = backoffDelay(attempt++, { minMs: opts.reconnectMinMs, maxMs: opts.reconnectMaxMs });
    handlers.onReconnectScheduled?.(delay);
    timer = setTimeout(connect, delay);
  }

  return {
    start(): void {
      if (!stopped) return;
      stopped = false;
      attempt = 0;
      connect();
    },
    /** Clean stop: OFFLINE (retained), then DISCONNECT, so the broker does not send the Will (a.3). */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      const c = client;
      const l = link;
      if (!c) return;
      if (l?.up) {
        await withTimeout(
          l
            .publishAsync(opts.topics.connection, connectionPayload("OFFLINE", l.session), true)
            .catch(() => {}),
          STOP_TIMEOUT_MS,
        );
        await withTimeout(c.endAsync(false), STOP_TIMEOUT_MS);
      }
      c.end(true);
      if (client === c) onClose(c);
    },
    status() {
      return { connected: link?.up ?? false, session, upSince, lastError };
    },
    get link(): Link | undefined {
      return link?.up ? link : undefined;
    },
  };
}

export type Connection = ReturnType<typeof createConnection>;
