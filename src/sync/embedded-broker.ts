import { createServer, type Server, type Socket } from "node:net";
import { createServer as createTlsServer } from "node:tls";
import { Aedes } from "aedes";
import type { Logger } from "pino";
import type { RefusalReason } from "../metrics.js";
import { type BrokerBudget, connectionBudget, subscriptionBudget } from "./broker-budget.js";
import { type BrokerGuardOptions, brokerGuard } from "./broker-guard.js";
import { ownRetainedPayloads, type RetainedBudget } from "./broker-retained.js";
import { createPacketScanner } from "./packet-limit.js";

export interface EmbeddedBrokerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** The `mqtts://` listener beside the plain one (`mqtt.embeddedTls`), when it has a certificate. */
  tls?: { host: string; port: number; cert: Buffer; key: Buffer };
  /** Who may connect and what they may do (broker-guard.ts). */
  guard: Omit<BrokerGuardOptions, "log">;
  /** The largest payload a packet after CONNECT may carry before its connection is closed. */
  maxPacketBytes: number;
  /** Connections and subscriptions per caller (broker-budget.ts). */
  budget: BrokerBudget;
  /** Retained messages held, by count and bytes (broker-retained.ts). */
  retained: RetainedBudget;
  /** Counts each refusal by a limit (`budget_refusals_total`). */
  refusals?: { inc(labels: { reason: RefusalReason }): void };
  log: Logger;
}

export interface EmbeddedBroker {
  /** `mqtt://host:port` of the plain listener: the one the agent's own client uses. */
  readonly url: string;
  readonly port: number;
  /** Port of the TLS listener, when there is one. */
  readonly tlsPort?: number;
  stop(): Promise<void>;
}

/** A TLS client that has not finished its handshake in this time is dropped, as an idle HTTP one is. */
const HANDSHAKE_TIMEOUT_MS = 10_000;

/**
 * The largest CONNECT read before its credentials are checked: a client id, a user name and a password
 * (each at most 65,535 bytes by the protocol, a few hundred in practice) and a will. A larger one is
 * closed as its header arrives (packet-limit.ts), instead of being buffered whole.
 */
export const MAX_CONNECT_BYTES = 64 * 1024;
/** What a packet after CONNECT may carry beyond its payload: its topic, packet id and the like. */
const PACKET_OVERHEAD_BYTES = 64 * 1024;

/** A refusal by a limit is logged at most once per reason in this time (and always counted). */
const REFUSAL_LOG_MS = 10_000;

/**
 * aedes' own limits (https://github.com/moscajs/aedes/blob/main/docs/Aedes.md#new-aedesoptions),
 * tightened for a station (docs/limits.md): a socket that sends no CONNECT is closed after the same
 * 10 s a TLS handshake gets (aedes: 30 s); a client may hold at most 100 QoS 2 messages unacknowledged
 * towards the broker (aedes: 1,000), and a subscriber that reads nothing is closed once its socket has
 * not drained for 60 s (aedes' `drainTimeout`), so unread messages cannot pile up without bound.
 */
const AEDES_LIMITS = {
  connectTimeout: HANDSHAKE_TIMEOUT_MS,
  maxInflightInbound: 100,
  drainTimeout: 60_000,
};

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise<number>((ok, fail) => {
    server.once("error", fail);
    server.listen(port, host, () => {
      server.off("error", fail);
      const address = server.address();
      ok(typeof address === "object" && address ? address.port : port);
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise<void>((ok) => (server.listening ? server.close(() => ok()) : ok()));
}

const bracketed = (host: string) => (host.includes(":") ? `[${host}]` : host);

/**
 * `mqtt.url: embedded` (docs/architecture.md#interfaces): an in-process aedes broker on a local TCP port, so a new user
 * sees the station's notifications with any MQTT client and no other software. It keeps retained
 * messages in memory only, which is why the agent republishes them on every connect
 * (docs/mqtt.md#retained-state). aedes speaks MQTT 3.1.1. Every client authenticates and is held to
 * the station's ACL (broker-guard.ts), unless `mqtt.embeddedAnonymous` lets clients in without credentials.
 * With `mqtt.embeddedTls` a second listener takes `mqtts://` connections into the same broker, so the
 * same hooks judge them (docs/mqtt.md#tls-listener).
 */
export async function startEmbeddedBroker(opts: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
  const { closed, ...hooks } = brokerGuard({ ...opts.guard, log: opts.log });
  // Each refusal is counted; the log says so once per reason every 10 s, with how many it did not
  // repeat: a flood of 100,000 refused filters must not become 100,000 log lines.
  const lastLogged = new Map<RefusalReason, { at: number; unsaid: number }>();
  const refused = (reason: RefusalReason, detail: object) => {
    opts.refusals?.inc({ reason });
    const now = Date.now();
    const last = lastLogged.get(reason);
    if (last && now - last.at < REFUSAL_LOG_MS) {
      last.unsaid++;
      return;
    }
    const unsaid = last?.unsaid ?? 0;
    lastLogged.set(reason, { at: now, unsaid: 0 });
    opts.log.warn({ ...detail, reason, unsaid }, "mqtt broker: refused by a limit (docs/limits.md)");
  };
  const subscriptions = subscriptionBudget(
    hooks.authorizeSubscribe,
    opts.budget.maxSubscriptionsPerClient,
    (reason, client) => refused(reason, { client: client.id }),
  );
  const broker = await Aedes.createBroker({
    id: "pps-edge-embedded",
    ...AEDES_LIMITS,
    ...hooks,
    authorizeSubscribe: subscriptions.authorizeSubscribe,
  });
  ownRetainedPayloads(broker, opts.retained, (topic) => refused("mqtt_retained", { topic }));
  // a user's connection is watched for revocation until it ends (broker-guard.ts)
  broker.on("clientDisconnect", closed);
  broker.on("unsubscribe", subscriptions.unsubscribed);
  const sockets = new Set<Socket>();
  const limits = { connect: MAX_CONNECT_BYTES, other: opts.maxPacketBytes + PACKET_OVERHEAD_BYTES };
  const mayStay = connectionBudget(opts.budget, (reason, address) => refused(reason, { address }));
  // judged on the TCP socket as it arrives, before a byte is read (on the TLS listener: before the handshake)
  const admit = (socket: Socket) => {
    if (mayStay(socket)) return true;
    socket.destroy();
    return false;
  };
  const accept = (socket: Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    // before aedes' parser sees the bytes: a packet announcing more than its limit closes the socket
    const scan = createPacketScanner(limits);
    const watchSize = (chunk: Buffer) => {
      const verdict = scan(chunk);
      if (verdict.ok) return;
      socket.off("data", watchSize);
      opts.refusals?.inc({ reason: "mqtt_packet_size" });
      opts.log.warn(
        {
          address: socket.remoteAddress,
          announced: verdict.announced,
          limit: verdict.limit,
          connect: verdict.first,
        },
        "mqtt broker: a packet over the size limit; connection closed",
      );
      socket.destroy();
    };
    socket.on("data", watchSize);
    broker.handle(socket);
  };
  const servers: Server[] = [createServer((socket) => admit(socket) && accept(socket))];
  const { tls } = opts;
  if (tls) {
    const secure = createTlsServer(
      { cert: tls.cert, key: tls.key, handshakeTimeout: HANDSHAKE_TIMEOUT_MS },
      accept,
    );
    secure.on("connection", admit);
    secure.on("tlsClientError", (err) => opts.log.debug({ err }, "mqtt broker: TLS handshake failed"));
    servers.push(secure);
  }
  broker.on("clientError", (client, err) =>
    opts.log.debug({ err, client: client.id }, "mqtt broker: client error"),
  );
  let port: number;
  let tlsPort: number | undefined;
  try {
    port = await listen(servers[0] as Server, opts.port, opts.host);
    if (tls) tlsPort = await listen(servers[1] as Server, tls.port, tls.host);
  } catch (e) {
    await Promise.all(servers.map(close));
    await new Promise<void>((ok) => broker.close(() => ok()));
    throw e;
  }
  opts.log.info({ host: opts.host, port }, "embedded MQTT broker listening");
  if (tls) opts.log.info({ host: tls.host, port: tlsPort }, "embedded MQTT broker listening for mqtts://");
  if (opts.guard.anonymous) {
    opts.log.warn(
      { host: opts.host, port },
      "embedded MQTT broker lets clients in without credentials (mqtt.embeddedAnonymous)",
    );
  }

  return {
    url: `mqtt://${bracketed(opts.host)}:${port}`,
    port,
    ...(tlsPort === undefined ? {} : { tlsPort }),
    async stop() {
      const closed = Promise.all(servers.map(close));
      for (const s of sockets) s.destroy();
      await closed;
      await new Promise<void>((ok) => broker.close(() => ok()));
    },
  };
}
