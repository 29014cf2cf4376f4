/**
 * The station API's server (docs/architecture.md#http): it listens on the configured address with
 * Node's timeouts and connection limit, over HTTPS when `http.tls` names a certificate (tls.ts), answers
 * requests the adaptor cannot parse with the station's error body (client-error.ts), and names the
 * config key at fault when it cannot listen. A critical part: a station nobody can reach does not start.
 */
import { createServer as createHttpServer, type Server, type ServerOptions } from "node:http";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import type { Hono } from "hono";
import type { Logger } from "pino";
import type { HttpConfig } from "../config/http.schema.js";
import type { ProgressRules } from "../domain/connection-progress.js";
import type { Metrics } from "../metrics.js";
import { StartError } from "../start-error.js";
import { answerClientErrors, requestRefusal } from "./client-error.js";
import { budgetConnections } from "./connection-budget.js";
import { type ConnectionWatch, connectionWatch } from "./connection-watch.js";
import type { AppEnv } from "./context.js";
import { limitPipelining } from "./pipeline.js";
import { httpsFiles, httpsOptions, reloadOnHangup } from "./tls.js";

/** Why the server cannot listen, when a maintainer can fix it: the key at fault and what to do. */
export function listenFailure(err: unknown, host: string, port: number): unknown {
  const code = (err as { code?: string }).code;
  const at = `${host}:${port}`;
  if (code === "EADDRINUSE") {
    return new StartError(
      `${at} is already in use (EADDRINUSE)`,
      "http.port",
      "stop the program listening there, or set http.port (PPS_EDGE_HTTP_PORT) to a free port",
      { cause: err },
    );
  }
  if (code === "EACCES") {
    return new StartError(
      `not allowed to listen on ${at} (EACCES)`,
      "http.port",
      "choose a port above 1023, or give the agent's user the right to bind low ports",
      { cause: err },
    );
  }
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND" || code === "EAI_AGAIN") {
    return new StartError(
      `${host} is not an address of this machine (${code})`,
      "http.host",
      "set http.host (PPS_EDGE_HTTP_HOST) to 127.0.0.1, 0.0.0.0 or an address of this machine",
      { cause: err },
    );
  }
  return err;
}

/**
 * Node's timeouts for slow and idle clients (config `http.*TimeoutMs`). Node checks them every
 * `connectionsCheckingInterval` (30 s by default): checked at least twice per headers timeout, so a
 * socket that sent nothing is closed within 1.5 × `headersTimeoutMs`.
 */
function timeouts(http: HttpConfig): ServerOptions {
  return {
    headersTimeout: http.headersTimeoutMs,
    requestTimeout: http.requestTimeoutMs,
    keepAliveTimeout: http.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, Math.ceil(http.headersTimeoutMs / 2)),
  };
}

/**
 * Connections over `http.maxConnections` are closed as they arrive, so sockets cannot exhaust the fds:
 * by the watch (connection-budget.ts), which may free a place for a newcomer, so Node's own limit is a
 * place above it, where the watch sees the newcomer.
 */
function limitConnections(s: Server, http: HttpConfig): void {
  s.maxConnections = http.maxConnections + 1;
  // set again: not every Node version takes it from the options
  s.keepAliveTimeout = http.keepAliveTimeoutMs;
}

/**
 * Pipelined requests waiting per connection before it is closed: more than one 64 KiB read of the
 * smallest requests can carry (26 bytes: 2,520), since Node's parser emits a whole read's requests at
 * once and the reading stops only after it. A waiting request costs about a kilobyte.
 */
const MAX_WAITING_REQUESTS = 4096;

/**
 * The slowest pace a client may take its answers at (docs/limits.md#slow-readers): far under any link
 * of the station's LAN, far over a slow-read attack's few bytes a second.
 */
const MIN_SEND_BYTES_PER_SECOND = 4 * 1024;
/** How long a connection must have made no progress before the budget cuts it or a newcomer takes its place. */
const STALL_MS = 1000;

/**
 * Places an address may hold while the station is ending its connections for unread answers
 * (docs/limits.md#slow-readers): enough for a client behind it that does read, few enough that one
 * opening them again at once costs refused connects, not answers.
 */
const HELD_BACK_PLACES = 4;

function progressRules(http: HttpConfig): ProgressRules {
  return {
    sendTimeoutMs: http.sendTimeoutMs,
    minSendBytesPerSecond: MIN_SEND_BYTES_PER_SECOND,
    budgetBytes: http.answerBufferBytes,
    stallMs: STALL_MS,
    heldBackPlaces: HELD_BACK_PLACES,
  };
}

/** Listens on the configured address; stop closes the server and every open connection. */
export function httpServer(
  http: HttpConfig,
  log: Logger,
  app: Hono<AppEnv>,
  listening: (a: AddressInfo) => void,
  metrics: Metrics,
) {
  let server: Server | undefined;
  let watch: ConnectionWatch | undefined;
  let stopReloading = () => {};
  return {
    name: "http server",
    critical: true,
    start: () =>
      new Promise<void>((ok, fail) => {
        const { host, port } = http;
        const tls = httpsFiles(http);
        const serverOptions = timeouts(http);
        // A request the adaptor cannot turn into a Request (a backslash in the path, no Host) gets the
        // station's error body instead of a bare 400 (http/client-error.ts).
        const refusals = metrics.refusals();
        watch = connectionWatch(progressRules(http), (reason, address) => {
          refusals.inc({ reason });
          log.warn({ address, reason }, "http: connection ended: its client does not take its answers");
        });
        const listener = limitPipelining(
          watch.listener(getRequestListener(app.fetch, { hostname: host, errorHandler: requestRefusal })),
          { inFlight: http.requestsInFlightPerConnection, maxWaiting: MAX_WAITING_REQUESTS },
          (socket) => {
            refusals.inc({ reason: "http_pipelined" });
            log.warn(
              { address: socket.remoteAddress },
              "http: too many pipelined requests; connection closed",
            );
          },
        );
        // the same timeouts and limits on HTTPS: https.Server is an http.Server behind the handshake
        server = tls
          ? createHttpsServer({ ...serverOptions, ...httpsOptions(tls, http, log) }, listener)
          : createHttpServer(serverOptions, listener);
        const s = server;
        s.listen(port, host, () => {
          listening(s.address() as AddressInfo);
          ok();
        });
        if (tls) stopReloading = reloadOnHangup(server as HttpsServer, tls, log);
        limitConnections(server, http);
        budgetConnections(
          server,
          {
            perAddress: http.maxConnectionsPerAddress,
            tls: tls !== undefined,
            total: http.maxConnections,
            watch,
          },
          metrics,
        );
        answerClientErrors(server);
        server.once("error", (err) => fail(listenFailure(err, host, port)));
      }),
    async stop() {
      stopReloading();
      watch?.stop();
      const s = server;
      server = undefined;
      if (!s?.listening) return;
      await new Promise<void>((ok) => {
        s.close(() => ok());
        if ("closeAllConnections" in s) (s as { closeAllConnections(): void }).closeAllConnections();
      });
    },
  };
}
