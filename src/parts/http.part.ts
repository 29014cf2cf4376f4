/**
 * The HTTP side of the agent: the app with every route group (docs/architecture.md#http), and the
 * server that listens, a critical part: a station nobody can reach over HTTP does not start.
 */
import { createServer as createHttpServer, type Server, type ServerOptions } from "node:http";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import type { Hono } from "hono";
import { isMigrated, shippedMigrationCount } from "../db/open.js";
import { createHttpApp, type RouteGroup } from "../http/app.js";
import { requireBearer } from "../http/auth.middleware.js";
import { answerClientErrors, requestRefusal } from "../http/client-error.js";
import type { AppEnv } from "../http/context.js";
import { metricsAccess } from "../http/metrics-access.js";
import { auditsRoutes } from "../http/routes/audits.routes.js";
import { authRoutes } from "../http/routes/auth.routes.js";
import { deadLettersRoutes } from "../http/routes/dead-letters.routes.js";
import { integrationRoutes } from "../http/routes/integration.routes.js";
import { masterdataRoutes } from "../http/routes/masterdata.routes.js";
import { notificationsRoutes } from "../http/routes/notifications.routes.js";
import { opsRoutes } from "../http/routes/ops.routes.js";
import { reportsRoutes } from "../http/routes/reports.routes.js";
import { requestsRoutes } from "../http/routes/requests.routes.js";
import { securityEventsRoutes } from "../http/routes/security-events.routes.js";
import { stationRoutes } from "../http/routes/station.routes.js";
import type { ReadinessCheck } from "../services/station/station-status.js";
import { StartError } from "../start-error.js";
import type { Sync } from "../sync/sync.js";
import { VERSION } from "../version.js";
import type { Foundation } from "./foundation.js";
import { httpsFiles, httpsOptions, reloadOnHangup } from "./http-tls.js";
import type { Part } from "./part.js";

/**
 * `devices` in /readyz: how many declared devices are connected, and which are not with their last
 * error. Always ok: an unplugged scanner or controller is retried and must not take the station out of
 * service (docs/architecture.md#devices-and-firmware-profiles); it is named here for the maintainer.
 */
function devicesCheck(f: Foundation) {
  return {
    name: "devices",
    check: () => {
      const all = f.hub.health();
      const down = all.filter((d) => !d.connected);
      const named = down.map((d) => `${d.id} (${d.transport}${d.lastError ? `: ${d.lastError}` : ""})`);
      const detail = `${all.length - down.length} of ${all.length} connected`;
      return { ok: true, detail: down.length ? `${detail}; not connected: ${named.join(", ")}` : detail };
    },
  };
}

/** What GET /readyz checks (and `request/health_check` reports): database, storage, devices, outbox, mqtt. */
export function readinessChecks(f: Foundation, sync: Sync): ReadinessCheck[] {
  const { sqlite } = f.handle;
  const migrations = shippedMigrationCount();
  const database = {
    name: "database",
    check: () =>
      isMigrated(sqlite, migrations)
        ? { ok: true }
        : { ok: false, detail: "database not open or not migrated" },
  };
  // a full disk or an I/O error: unready until a write commits again (services/unit-of-work/storage-health.ts)
  const storage = { name: "storage", check: () => f.svc.storage.check() };
  return [database, storage, devicesCheck(f), ...sync.readiness()];
}

/** The app: the spec's routes, the station API, and the routes of the station and screen parts. */
export function buildHttpApp(f: Foundation, sync: Sync, partRoutes: RouteGroup[]): Hono<AppEnv> {
  const { svc, config, metrics, now } = f;
  return createHttpApp(
    {
      log: f.log,
      metrics,
      bodyLimitBytes: config.http.bodyLimitBytes,
      guard: requireBearer(svc.auth),
      onForbidden: svc.auth.access.onForbidden,
      storage: svc.storage,
    },
    [
      opsRoutes({
        metrics,
        version: VERSION,
        checks: readinessChecks(f, sync),
        metricsAccess: metricsAccess(
          { open: config.metrics.open, isScrapeToken: svc.auth.isScrapeToken },
          f.log,
        ),
      }),
      authRoutes(svc.auth),
      masterdataRoutes(svc.catalog, svc.items),
      notificationsRoutes(svc.notifications),
      deadLettersRoutes(svc.deadLetters),
      securityEventsRoutes(svc.securityLog),
      requestsRoutes(svc.requests),
      integrationRoutes(svc.operations),
      stationRoutes(svc.operations, () => svc.station.state(now(), config.site)),
      auditsRoutes(svc.audits, now),
      reportsRoutes(svc.reports),
      ...partRoutes,
    ],
  ).app;
}

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

type HttpConfig = Foundation["config"]["http"];

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

/** Connections over `http.maxConnections` are closed as they arrive, so sockets cannot exhaust the fds. */
function limitConnections(s: Server, http: HttpConfig): void {
  s.maxConnections = http.maxConnections;
  // set again: not every Node version takes it from the options
  s.keepAliveTimeout = http.keepAliveTimeoutMs;
}

/** Listens on the configured address; stop closes the server and every open connection. */
export function httpServerPart(f: Foundation, app: Hono<AppEnv>, listening: (a: AddressInfo) => void): Part {
  let server: Server | undefined;
  let stopReloading = () => {};
  return {
    name: "http server",
    critical: true,
    start: () =>
      new Promise<void>((ok, fail) => {
        const { host, port } = f.config.http;
        const tls = httpsFiles(f.config.http);
        const serverOptions = timeouts(f.config.http);
        // A request the adaptor cannot turn into a Request (a backslash in the path, no Host) gets the
        // station's error body instead of a bare 400 (http/client-error.ts).
        const listener = getRequestListener(app.fetch, { hostname: host, errorHandler: requestRefusal });
        // the same timeouts and limits on HTTPS: https.Server is an http.Server behind the handshake
        server = tls
          ? createHttpsServer({ ...serverOptions, ...httpsOptions(tls, f.config.http, f.log) }, listener)
          : createHttpServer(serverOptions, listener);
        const s = server;
        s.listen(port, host, () => {
          listening(s.address() as AddressInfo);
          ok();
        });
        if (tls) stopReloading = reloadOnHangup(server as HttpsServer, tls, f.log);
        limitConnections(server, f.config.http);
        answerClientErrors(server);
        server.once("error", (err) => fail(listenFailure(err, host, port)));
      }),
    async stop() {
      stopReloading();
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
