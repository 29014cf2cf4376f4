import { z } from "zod";
import { commaSeparated, count, flag } from "./config-values.js";
import { embeddedTlsSchema } from "./security.schema.js";

/**
 * The `mqtt` section: the embedded broker or the central one, and how notifications reach it
 * (docs/mqtt.md). Each key's `describe` text is what docs/configuration.md and the package's commented
 * /etc/pps-edge/pps-edge.yaml say about it (`npm run docs:generate`).
 */

/** 127.0.0.0/8, ::1 or localhost: only processes of the station's own computer can connect. */
function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Every listener of the embedded broker (plain, and TLS when it has a certificate) is on loopback. */
function embeddedListenersOnLoopback(m: {
  embeddedHost: string;
  embeddedTls: { host?: string | undefined; certFile?: string | undefined };
}): boolean {
  const tlsHost =
    m.embeddedTls.certFile === undefined ? m.embeddedHost : (m.embeddedTls.host ?? m.embeddedHost);
  return isLoopback(m.embeddedHost) && isLoopback(tlsHost);
}

/**
 * `url`: `embedded` (an in-process broker on embeddedHost:embeddedPort), `off`, or a broker URL.
 * `clientId` defaults to `pps-edge-<site>-<ppsId>`: stable and unique per station, because two
 * clients with one id kick each other off in a loop (docs/mqtt.md#backoff-and-reconnects).
 */
/** `mqtt://host[:port]` or `mqtts://host[:port]`, one a URL parser takes (a port up to 65535). */
const isBrokerUrl = (v: string) => /^mqtts?:\/\/[^\s/]+/.test(v) && URL.canParse(v);
const brokerUrl = z.string().refine(isBrokerUrl, {
  message: "an mqtt:// or mqtts:// URL",
});

const mqttObject = z
  .object({
    url: z
      .string()
      .refine((v) => v === "embedded" || v === "off" || isBrokerUrl(v), {
        message: "embedded, off, or an mqtt:// or mqtts:// URL",
      })
      .default("embedded")
      .describe(
        "`embedded` (a broker inside the agent), `off`, or the central broker: `mqtt://host:1883`, `mqtts://host:8883` (see docs/mqtt.md)",
      ),
    /**
     * The other nodes of a clustered broker (docs/mqtt.md#a-clustered-broker): when the connection is
     * lost or cannot be made, the next address is tried at once, so a station whose node dies publishes
     * through another one within seconds; the backoff grows only once every address has failed.
     */
    failoverUrls: z
      .preprocess(commaSeparated, z.array(brokerUrl).max(16))
      .default([])
      .describe(
        "further addresses of the same clustered broker, tried in turn after `mqtt.url` (a list, or comma-separated in the environment); only with a broker URL in `mqtt.url`",
      ),
    embeddedHost: z
      .string()
      .min(1)
      .default("127.0.0.1")
      .describe(
        "listen address of the embedded broker (the station LAN address to let other machines subscribe)",
      ),
    /** 0 picks a free port (tests). */
    embeddedPort: count(0, 65535, 1883).describe("its port (`0`: any free port)"),
    /** The embedded broker's `mqtts://` listener, beside the plain one (security.schema.ts). */
    embeddedTls: embeddedTlsSchema,
    /**
     * Clients without credentials on the embedded broker: for trying the station out on its own
     * computer, so only with a loopback embeddedHost (refused below otherwise; warned at start).
     */
    embeddedAnonymous: flag
      .default(false)
      .describe(
        "`true` lets clients without credentials into the embedded broker (with the central system's rights); refused at start unless `mqtt.embeddedHost` is loopback, warned at every start (see docs/mqtt.md#embedded-broker-credentials-and-acl)",
      ),
    /** The embedded broker's budget per caller (docs/limits.md; sync/broker-budget.ts). */
    embeddedMaxConnections: count(1, 10_000, 64).describe(
      "connections the embedded broker holds open at once, all listeners together; further ones are closed as they arrive",
    ),
    embeddedMaxConnectionsPerAddress: count(1, 10_000, 16).describe(
      "connections one source address may hold open on the embedded broker at once",
    ),
    embeddedMaxSubscriptionsPerClient: count(1, 100_000, 100).describe(
      "topic filters one client may hold subscribed on the embedded broker; a filter past it is refused (SUBACK `0x80`), the connection kept",
    ),
    /** The embedded broker keeps retained messages in the agent's memory (sync/broker-retained.ts). */
    embeddedRetainedMaxMessages: count(10, 1_000_000, 5_000).describe(
      "retained topics the embedded broker keeps at once; a retained message on a further topic is delivered but not kept",
    ),
    embeddedRetainedMaxBytes: count(64 * 1024, 1024 * 1024 * 1024, 16 * 1024 * 1024).describe(
      "bytes of retained payloads the embedded broker keeps at once; past it, as for `mqtt.embeddedRetainedMaxMessages`",
    ),
    /** 5 for brokers that speak MQTT 5 (PUBACK reason codes); 4 for 3.1.1. The embedded broker is 3.1.1. */
    protocolVersion: z.coerce
      .number()
      .pipe(z.union([z.literal(4), z.literal(5)]))
      .default(5)
      .describe("`5` or `4` (3.1.1) for the central broker; the embedded broker speaks 3.1.1"),
    /**
     * The QoS of the agent's `request/+` subscription. The session is clean, so requests are never kept
     * for a station that is away at either QoS and central retries by `transaction`; 0 lets a clustered
     * RabbitMQ keep a station that lost its node: it keeps a QoS 1 subscription in a durable queue on
     * that node, which the other nodes refuse to declare anew until it is back (docs/mqtt.md#rabbitmq).
     */
    requestQos: z.coerce
      .number()
      .pipe(z.union([z.literal(0), z.literal(1)]))
      .default(1)
      .describe(
        "QoS of the `request/+` subscription: `1`, or `0` on a RabbitMQ cluster so a station can move to another node at once (see docs/mqtt.md)",
      ),
    username: z.string().min(1).max(256).optional().describe("broker user name"),
    password: z
      .string()
      .min(1)
      .max(1024)
      .optional()
      .describe("its password (put it in `/etc/pps-edge/pps-edge.env`)"),
    caFile: z
      .string()
      .min(1)
      .optional()
      .describe(
        "PEM file of the CA that signed the broker's certificate (`mqtts://`; the certificate is always verified)",
      ),
    certFile: z
      .string()
      .min(1)
      .optional()
      .describe("PEM client certificate, for brokers that authenticate stations by certificate"),
    keyFile: z.string().min(1).optional().describe("PEM key of that certificate"),
    clientId: z
      .string()
      .regex(/^[A-Za-z0-9_.:-]{1,128}$/, "letters, digits, '_', '.', ':' or '-' (1-128)")
      .optional()
      .meta({
        description:
          "MQTT client id: stable and unique per station (two clients with one id kick each other off)",
        shownDefault: "`pps-edge-<site>-<ppsId>`",
      }),
    keepaliveSeconds: count(5, 3600, 15).describe("keepalive; a dead link is noticed after 1.5× this"),
    connectTimeoutMs: count(1000, 300_000, 30_000).describe(
      "a connect attempt without CONNACK is given up after this",
    ),
    /**
     * Reconnect steps (docs/mqtt.md#backoff-and-reconnects): the first retry after a lost connection
     * comes within `reconnectMinMs`; while the broker refuses the station the step doubles up to
     * `reconnectMaxMs` (4 s: a fleet is back within seconds of the broker's return, however long each
     * station had been connected); only connections the broker accepts and that keep breaking soon
     * after grow it up to `reconnectFlappingMaxMs`.
     */
    reconnectMinMs: count(10, 600_000, 1000).describe(
      "after a connection is lost, the first retry comes at a random moment within this (at another node of `mqtt.failoverUrls`, within 250 ms at most); each refused attempt doubles the step …",
    ),
    reconnectMaxMs: count(10, 3_600_000, 4000).describe(
      "… up to this, each delay random in [0, step]: a broker that returns is tried again by every station within this, whatever connection it lost",
    ),
    reconnectFlappingMaxMs: count(10, 3_600_000, 60_000).describe(
      "connections that the broker accepts but that break within 10 s, again and again (e.g. a duplicate client id): from the second in a row (with `mqtt.failoverUrls`, from the one after each address has dropped the station once) each doubles the step up to this, each delay at least half of it; a refused connect never grows it, a connection that lasts 10 s resets it",
    ),
    /**
     * Returning to an earlier node (docs/mqtt.md#a-clustered-broker): without it a cluster's stations
     * gather on whichever node survived the last failure, and that node's next death moves them all.
     */
    failbackAfterMs: count(0, 3_600_000, 10_000).describe(
      "on an address of `mqtt.failoverUrls`, the agent checks the addresses before it in the list every 2 s (or half of this, if shorter) and returns to the first one that has accepted connections for between this and twice this (longer after a return that failed); `0`: it stays on the node in use until that is lost",
    ),
    inflightWindow: count(1, 65_535, 64).describe(
      "notifications published and not yet acknowledged at once (lowered to the broker's Receive Maximum)",
    ),
    maxMessageBytes: count(1024, 256 * 1024 * 1024, 1024 * 1024).describe(
      "the largest MQTT message the agent publishes (or the broker's maximum packet size, if smaller): a larger notification goes out as ordered parts that central puts together (docs/mqtt.md#notifications-in-parts); at or below a broker's own payload limit",
    ),
    maxDeliveryAttempts: count(1, 1_000_000, 10).describe(
      "connections lost in a row while the same notification is unacknowledged before it is moved aside",
    ),
    pruneDeliveredAfterHours: count(1, 24 * 365, 168).describe(
      "delivered notifications are deleted from the outbox after this (undelivered ones never)",
    ),
    /** The broker holds the active requests only (docs/mqtt.md#retained-state). */
    retainTerminalSeconds: count(0, 365 * 24 * 3600, 3600).describe(
      "a finished (`PROCESSED`, `FAILED`, `CANCELLED`) request's retained `state/<type>/<id>` is cleared this long after it finished; `0` clears it at once",
    ),
    /** A request with a long list of lines would otherwise be retained whole (retained-messages.ts). */
    retainedStateMaxBytes: count(1024, 16 * 1024 * 1024, 16 * 1024).describe(
      "a request's retained `state/<type>/<id>` larger than this is retained as a summary (its plain fields and `stateTruncated`); read the whole request over HTTP",
    ),
    /** Remembered so that a repeated `transaction` is not applied twice. */
    inboxRetentionHours: count(1, 24 * 365, 168).describe(
      "how long an answered MQTT request is remembered by its `transaction`",
    ),
    outboxWarnDepth: count(1, 100_000_000, 10_000).describe(
      "`/readyz` reports the `outbox` check as failing, and the log warns, from this many undelivered …",
    ),
    outboxWarnAgeSeconds: count(1, 30 * 24 * 3600, 300).describe(
      "… or when the oldest undelivered notification is this old",
    ),
  })
  .strict()
  .refine((m) => m.reconnectMinMs <= m.reconnectMaxMs, {
    message: "reconnectMinMs must not exceed reconnectMaxMs",
    path: ["reconnectMinMs"],
  })
  .refine((m) => m.failoverUrls.length === 0 || /^mqtts?:/.test(m.url), {
    message: "failover addresses belong to a central broker named in mqtt.url, not to `embedded` or `off`",
    path: ["failoverUrls"],
  })
  .refine((m) => !m.embeddedAnonymous || m.url !== "embedded" || embeddedListenersOnLoopback(m), {
    message: "anonymous clients are allowed only when the embedded broker listens on loopback",
    path: ["embeddedAnonymous"],
  });

export const mqttSchema = mqttObject.default(() => mqttObject.parse({}));
