/**
 * The HTTP side of the agent: the app with every route group (docs/architecture.md#http), and the
 * server that listens, a critical part: a station nobody can reach over HTTP does not start.
 */
import type { AddressInfo } from "node:net";
import { type ServerType, serve } from "@hono/node-server";
import type { Hono } from "hono";
import { isMigrated, shippedMigrationCount } from "../db/open.js";
import { createHttpApp, type RouteGroup } from "../http/app.js";
import { requireBearer } from "../http/auth.middleware.js";
import type { AppEnv } from "../http/context.js";
import { auditsRoutes } from "../http/routes/audits.routes.js";
import { authRoutes } from "../http/routes/auth.routes.js";
import { integrationRoutes } from "../http/routes/integration.routes.js";
import { masterdataRoutes } from "../http/routes/masterdata.routes.js";
import { notificationsRoutes } from "../http/routes/notifications.routes.js";
import { opsRoutes } from "../http/routes/ops.routes.js";
import { reportsRoutes } from "../http/routes/reports.routes.js";
import { requestsRoutes } from "../http/routes/requests.routes.js";
import { stationRoutes } from "../http/routes/station.routes.js";
import type { Sync } from "../sync/sync.js";
import { VERSION } from "../version.js";
import type { Foundation } from "./foundation.js";
import type { Part } from "./part.js";

/** The app: the spec's routes, the station API, and the routes of the station and screen parts. */
export function buildHttpApp(f: Foundation, sync: Sync, partRoutes: RouteGroup[]): Hono<AppEnv> {
  const { svc, config, metrics, now } = f;
  const { sqlite } = f.handle;
  const migrations = shippedMigrationCount();
  const database = {
    name: "database",
    check: () =>
      isMigrated(sqlite, migrations)
        ? { ok: true }
        : { ok: false, detail: "database not open or not migrated" },
  };
  return createHttpApp(
    { log: f.log, metrics, bodyLimitBytes: config.http.bodyLimitBytes, guard: requireBearer(svc.auth) },
    [
      opsRoutes({ metrics, version: VERSION, checks: [database, ...sync.readiness()] }),
      authRoutes(svc.auth),
      masterdataRoutes(svc.catalog, svc.items),
      notificationsRoutes(svc.notifications),
      requestsRoutes(svc.requests),
      integrationRoutes(svc.operations),
      stationRoutes(svc.operations, () => svc.station.state(now(), config.site)),
      auditsRoutes(svc.audits, now),
      reportsRoutes(svc.reports),
      ...partRoutes,
    ],
  ).app;
}

/** Listens on the configured address; stop closes the server and every open connection. */
export function httpServerPart(f: Foundation, app: Hono<AppEnv>, listening: (a: AddressInfo) => void): Part {
  let server: ServerType | undefined;
  return {
    name: "http server",
    critical: true,
    start: () =>
      new Promise<void>((ok, fail) => {
        const { host, port } = f.config.http;
        server = serve({ fetch: app.fetch, hostname: host, port }, (info) => {
          listening(info);
          ok();
        });
        server.once("error", fail);
      }),
    async stop() {
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
