import { z } from "zod";
import { count } from "./config-values.js";
import { bothOrNeither, bothOrNeitherMessage, certificateFiles } from "./security.schema.js";

/**
 * The `http` section: where the station API listens, its connection limits and its optional HTTPS
 * (docs/architecture.md#http).
 *
 * A station has a handful of clients (central, a screen or two, a maintainer's curl), all on the LAN: a
 * client that has not sent its headers in 10 s or its whole request in 30 s is broken or hostile, an idle
 * keep-alive socket is worth keeping 5 s (long enough for a client's next call, short enough that idle
 * sockets do not pile up), and 256 connections is far more than the station needs yet well under the
 * process's file descriptors, so a flood of sockets cannot stop the agent from opening its database,
 * devices and broker.
 */
const SERVER_LIMITS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 256,
  maxConnectionsPerAddress: 64,
  requestsInFlightPerConnection: 4,
  costlyRequestsPerSecond: 100,
  costlyBurst: 200,
  // a catalog's worth of item images at once, then a pace no commit of large bodies can stall the
  // station at (docs/limits.md, "Measured")
  storedBytesPerSecond: 256 * 1024,
  storedBurstBytes: 16 * 1024 * 1024,
  // a client that takes none of its answers for 10 s is gone or hostile; the answers waiting on all
  // connections together are held to two of the largest search answers (docs/limits.md#slow-readers)
  sendTimeoutMs: 10_000,
  answerBufferBytes: 32 * 1024 * 1024,
};
const milliseconds = (fallback: number) => z.coerce.number().int().min(100).max(600_000).default(fallback);
const serverLimits = {
  /** Time a client has to send the request headers (Node `server.headersTimeout`; on HTTPS also the handshake). */
  headersTimeoutMs: milliseconds(SERVER_LIMITS.headersTimeoutMs).describe(
    "time a client has to send its request headers; then the connection is closed (at most `http.requestTimeoutMs`)",
  ),
  /** Time a client has to send the whole request, body included (`server.requestTimeout`). */
  requestTimeoutMs: milliseconds(SERVER_LIMITS.requestTimeoutMs).describe(
    "time a client has to send its whole request, body included; then `408` and the connection is closed",
  ),
  /** How long an idle keep-alive connection stays open (`server.keepAliveTimeout`). */
  keepAliveTimeoutMs: milliseconds(SERVER_LIMITS.keepAliveTimeoutMs).describe(
    "how long an idle keep-alive connection stays open",
  ),
  /** Connections open at once; more are refused (`server.maxConnections`). */
  maxConnections: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(SERVER_LIMITS.maxConnections)
    .describe(
      "connections open at once; further ones are closed as they arrive (a station has a handful of clients)",
    ),
  /** One host's share of `maxConnections` (connection-budget.ts): a quarter, so it cannot starve the others. */
  maxConnectionsPerAddress: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(SERVER_LIMITS.maxConnectionsPerAddress)
    .describe(
      "connections one source address may hold open at once; further ones from it are closed as they arrive (behind a reverse proxy every client has the proxy's address: raise it to `http.maxConnections`)",
    ),
  /** Pipelined requests worked on at once per connection (pipeline.ts); the rest wait their turn. */
  requestsInFlightPerConnection: z.coerce
    .number()
    .int()
    .min(1)
    .max(64)
    .default(SERVER_LIMITS.requestsInFlightPerConnection)
    .describe(
      "pipelined requests of one connection worked on at once; later ones wait, and the connection is not read while they do",
    ),
  /** Per user, on the routes whose work grows with what is asked (user-rate.ts). */
  costlyRequestsPerSecond: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(SERVER_LIMITS.costlyRequestsPerSecond)
    .describe(
      "calls a second one user may make to the costly routes (item search, inventory report; over MQTT `generate_inventory_report`, all of the broker's requests one caller); past it `429 rate_limited` with `Retry-After`",
    ),
  costlyBurst: z.coerce
    .number()
    .int()
    .min(1)
    .max(100_000)
    .default(SERVER_LIMITS.costlyBurst)
    .describe(
      "calls one user may make to the costly routes at once before `http.costlyRequestsPerSecond` applies",
    ),
  /** Per user, on the routes that store what they are sent (items, catalogs; user-rate.ts). */
  storedBytesPerSecond: count(1024, 2 ** 40, SERVER_LIMITS.storedBytesPerSecond).describe(
    "bytes a second one user may send to the routes that store them (items, catalogs; over MQTT `upsert_item` and `upsert_catalog`, all of the broker's requests one caller), counted by `Content-Length` before the body is read; past it `429 rate_limited` with `Retry-After`",
  ),
  storedBurstBytes: count(1024, 2 ** 40, SERVER_LIMITS.storedBurstBytes).describe(
    "bytes one user may send to those routes at once before `http.storedBytesPerSecond` applies (a body larger than this counts as this much)",
  ),
  /** Answers a client does not take (connection-watch.ts): the send deadline and the answer budget. */
  sendTimeoutMs: milliseconds(SERVER_LIMITS.sendTimeoutMs).describe(
    "how long a connection's answers may wait while its client takes less than 4 KiB a second of them; then the connection is closed",
  ),
  answerBufferBytes: count(1024 * 1024, 2 ** 32, SERVER_LIMITS.answerBufferBytes).describe(
    "bytes of answers built and not yet taken by their clients, all connections together; past it the connections whose clients stopped reading are closed, the most held first, and a costly request from an address holding any (or cut so within `http.sendTimeoutMs`) is refused `503 answers_backlog` with `Retry-After`",
  ),
};

/**
 * `http.tls`: with a certificate and key the station API is served over HTTPS on `http.port` (bearer
 * tokens and passwords cross the LAN); without, plain HTTP.
 */
const httpTls = z
  .object({
    certFile: certificateFiles.certFile.describe(
      "PEM certificate (with its chain): the station API is served over HTTPS on `http.port` (see docs/security.md#https)",
    ),
    keyFile: certificateFiles.keyFile.describe(
      "PEM key of that certificate; set both or neither. `SIGHUP` reloads both files",
    ),
  })
  .strict()
  .refine(bothOrNeither, bothOrNeitherMessage("http.tls"))
  .default({});

export const httpSchema = z
  .object({
    host: z
      .string()
      .min(1)
      .default("127.0.0.1")
      .describe("listen address (the station LAN address in production)"),
    port: z.coerce.number().int().min(0).max(65535).default(8080).describe("listen port"),
    /** Largest request body accepted, in bytes (413 above it). */
    bodyLimitBytes: z.coerce
      .number()
      .int()
      .min(1024)
      .max(64 * 1024 * 1024)
      .default(1024 * 1024)
      .describe("largest request body; larger is a 413"),
    /**
     * Absolute base URL clients reach this agent at (e.g. behind a proxy), used for links such as a
     * report's `report_url`; when absent, the scheme and `Host` the caller used, else `http(s)://host:port`.
     */
    publicUrl: z
      .url({ protocol: /^https?$/ })
      .transform((u) => u.replace(/\/+$/, ""))
      .optional()
      .meta({
        description:
          "base URL clients reach the agent at (behind a proxy); used in `report_url`; unset: the scheme and `Host` of the generate call, else `http://host:port`",
        shownDefault: "the generate call's `Host`",
      }),
    ...serverLimits,
    tls: httpTls,
  })
  .strict()
  .refine((h) => h.headersTimeoutMs <= h.requestTimeoutMs, {
    path: ["headersTimeoutMs"],
    message: "at most http.requestTimeoutMs (the headers are part of the request)",
  })
  .default({ host: "127.0.0.1", port: 8080, bodyLimitBytes: 1024 * 1024, ...SERVER_LIMITS, tls: {} });

/** The parsed `http` section. */
export type HttpConfig = z.output<typeof httpSchema>;
