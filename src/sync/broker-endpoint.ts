/**
 * Where the sync connects and with what: the embedded broker it starts (`mqtt.url: embedded`,
 * docs/mqtt.md#embedded-broker) or the configured URL, the TLS files, and the connection options built
 * from them. A broker that cannot listen or a file that cannot be read is a `failure` that /readyz and
 * the log name; the station keeps working without MQTT (docs/architecture.md#what-the-agent-is-for).
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Logger } from "pino";
import { readCertificate } from "../config/certificate-files.js";
import type { Config } from "../config/config.schema.js";
import type { MqttRepo } from "../db/mqtt.repo.js";
import type { BrokerAccess, BrokerGuardOptions, VerifyUser } from "./broker-guard.js";
import type { ConnectionOptions } from "./connection-options.js";
import type { EmbeddedBroker, EmbeddedBrokerOptions } from "./embedded-broker.js";

/** The part of the agent's configuration the MQTT sync reads (config/ validates it and sets the defaults). */
export type SyncConfig = Pick<Config, "site" | "ppsId" | "mqtt" | "outbox" | "http">;
type MqttSettings = Config["mqtt"];

import type { Topics } from "./topics.js";

/**
 * A broker to connect to; `broker` when the sync started it and must stop it, with the credentials the
 * agent's own client uses on it.
 */
export interface Endpoint {
  url: string;
  /** Further nodes of the same clustered broker, tried in turn after `url`. */
  failoverUrls?: string[];
  protocolVersion: 4 | 5;
  broker?: EmbeddedBroker;
  credentials?: { username: string; password: string };
}

export type Tls = NonNullable<ConnectionOptions["tls"]>;

/** The agent's client id: stable and unique per station (docs/mqtt.md#backoff-and-reconnects). */
export function agentClientId(config: SyncConfig): string {
  return config.mqtt.clientId ?? `pps-edge-${config.site}-${config.ppsId}`;
}

/**
 * The configured broker, or the embedded one started now (MQTT 3.1.1 only: aedes speaks no 5). The
 * agent's own secret on the embedded broker is made afresh for each start and lives in memory only:
 * broker and client are in the same process, so nothing needs to store or show it.
 */
export async function brokerEndpoint(
  config: SyncConfig,
  guard: {
    root: string;
    verifyUser: VerifyUser;
    access?: BrokerAccess;
    onRefused?: BrokerGuardOptions["onRefused"];
    refusals?: EmbeddedBrokerOptions["refusals"];
  },
  log: Logger,
): Promise<Endpoint | { failure: string }> {
  const cfg = config.mqtt;
  if (cfg.url !== "embedded")
    return { url: cfg.url, failoverUrls: cfg.failoverUrls, protocolVersion: cfg.protocolVersion };
  const clientId = agentClientId(config);
  const credentials = { username: clientId, password: randomBytes(24).toString("base64url") };
  let broker: EmbeddedBroker;
  let tls: EmbeddedBrokerOptions["tls"];
  try {
    tls = embeddedTls(cfg);
  } catch (err) {
    // a StartError's message names the key and the fix; MQTT stays optional, so it is a failure, not a stop
    const failure = `embedded broker TLS listener: ${(err as Error).message}`;
    log.error({ err: (err as Error).message }, `mqtt: ${failure}`);
    return { failure };
  }
  try {
    // Loaded only when used: aedes is one of the largest modules of the agent.
    const { startEmbeddedBroker } = await import("./embedded-broker.js");
    broker = await startEmbeddedBroker({
      host: cfg.embeddedHost,
      port: cfg.embeddedPort,
      ...(tls ? { tls } : {}),
      budget: {
        maxConnections: cfg.embeddedMaxConnections,
        maxConnectionsPerAddress: cfg.embeddedMaxConnectionsPerAddress,
        maxSubscriptionsPerClient: cfg.embeddedMaxSubscriptionsPerClient,
      },
      retained: { maxMessages: cfg.embeddedRetainedMaxMessages, maxBytes: cfg.embeddedRetainedMaxBytes },
      ...(guard.refusals ? { refusals: guard.refusals } : {}),
      guard: {
        ...guard,
        agent: { clientId, username: credentials.username, secret: credentials.password },
        anonymous: cfg.embeddedAnonymous,
      },
      // a request over http.bodyLimitBytes is still read and answered 413 (requests.ts); only a packet
      // far beyond what any request may carry closes the connection
      maxPacketBytes: 2 * Math.max(cfg.maxMessageBytes, config.http.bodyLimitBytes),
      log,
    });
  } catch (err) {
    const at = `${cfg.embeddedHost}:${cfg.embeddedPort}${tls ? ` or ${tls.host}:${tls.port}` : ""}`;
    const failure = `embedded broker cannot listen on ${at}: ${(err as Error).message}`;
    log.error(
      { err },
      `mqtt: ${failure}; set mqtt.embeddedPort (mqtt.embeddedTls.port), or mqtt.url to the broker already there`,
    );
    return { failure };
  }
  return { url: broker.url, protocolVersion: 4, broker, credentials };
}

/** The TLS listener's address and certificate, when `mqtt.embeddedTls` has one; throws a StartError. */
function embeddedTls(cfg: MqttSettings): EmbeddedBrokerOptions["tls"] {
  const { certFile, keyFile, host, port } = cfg.embeddedTls;
  if (!certFile || !keyFile) return undefined;
  const { cert, key } = readCertificate("mqtt.embeddedTls", { certFile, keyFile });
  return { host: host ?? cfg.embeddedHost, port, cert, key };
}

/** The CA, client certificate and key files, when configured. */
export function readTls(cfg: MqttSettings, log: Logger): { tls: Tls } | { failure: string } {
  const readFile = (path: string | undefined) => (path ? readFileSync(path) : undefined);
  try {
    return { tls: { ca: readFile(cfg.caFile), cert: readFile(cfg.certFile), key: readFile(cfg.keyFile) } };
  } catch (err) {
    const failure = `TLS file unreadable: ${(err as Error).message}`;
    log.error({ err }, `mqtt: ${failure}; check mqtt.caFile, mqtt.certFile and mqtt.keyFile`);
    return { failure };
  }
}

export interface ConnectionContext {
  topics: Topics;
  repo: Pick<MqttRepo, "nextSession">;
  now(): number;
  log: Logger;
}

/** The connection to `endpoint`, subscribed to the station's requests. */
export function connectionOptions(
  config: SyncConfig,
  endpoint: Endpoint,
  tls: Tls,
  ctx: ConnectionContext,
): ConnectionOptions {
  const cfg = config.mqtt;
  return {
    urls: [endpoint.url, ...(endpoint.failoverUrls ?? [])],
    clientId: agentClientId(config),
    protocolVersion: endpoint.protocolVersion,
    keepaliveSeconds: cfg.keepaliveSeconds,
    connectTimeoutMs: cfg.connectTimeoutMs,
    reconnectMinMs: cfg.reconnectMinMs,
    reconnectMaxMs: cfg.reconnectMaxMs,
    reconnectFlappingMaxMs: cfg.reconnectFlappingMaxMs,
    failbackAfterMs: cfg.failbackAfterMs,
    // On the embedded broker the agent is itself; mqtt.username/password are for a central broker.
    username: endpoint.credentials?.username ?? cfg.username,
    password: endpoint.credentials?.password ?? cfg.password,
    tls,
    topics: ctx.topics,
    subscriptions: [ctx.topics.requests],
    subscriptionQos: cfg.requestQos,
    nextSession: ctx.repo.nextSession,
    now: ctx.now,
    log: ctx.log,
  };
}
