/**
 * The station API as one app (docs/architecture.md#http): the interface's routes, the operational and
 * admin endpoints, and the route groups the station brings (its own API, the engine's scans and
 * simulator, the operator screen: station/routes/, station/screen/routes/), each bound to what it calls.
 */
import type { Hono } from "hono";
import type { Logger } from "pino";
import type { Config } from "../config/config.schema.js";
import type { Metrics } from "../metrics.js";
import type { Services } from "../services/services.js";
import type { ReadinessCheck } from "../services/status/station-status.js";
import { VERSION } from "../version.js";
import { createHttpApp, type RouteGroup } from "./app.js";
import { requireBearer } from "./auth.middleware.js";
import type { AppEnv } from "./context.js";
import { metricsAccess } from "./metrics-access.js";
import { auditsRoutes } from "./routes/audits.routes.js";
import { authRoutes } from "./routes/auth.routes.js";
import { deadLettersRoutes } from "./routes/dead-letters.routes.js";
import { integrationRoutes } from "./routes/integration.routes.js";
import { masterdataRoutes } from "./routes/masterdata.routes.js";
import { notificationsRoutes } from "./routes/notifications.routes.js";
import { opsRoutes } from "./routes/ops.routes.js";
import { reportsRoutes } from "./routes/reports.routes.js";
import { requestsRoutes } from "./routes/requests.routes.js";
import { securityEventsRoutes } from "./routes/security-events.routes.js";
import { webhooksRoutes } from "./routes/webhooks.routes.js";

export interface StationApiDeps {
  svc: Services;
  config: Config;
  metrics: Metrics;
  log: Logger;
  now: () => number;
  /** What GET /readyz runs (services/status/agent-status.ts). */
  checks: readonly ReadinessCheck[];
}

export function createStationApi(deps: StationApiDeps, partRoutes: RouteGroup[]): Hono<AppEnv> {
  const { svc, config, metrics, now, log } = deps;
  return createHttpApp(
    {
      log,
      metrics,
      bodyLimitBytes: config.http.bodyLimitBytes,
      costlyRate: { perSecond: config.http.costlyRequestsPerSecond, burst: config.http.costlyBurst },
      storedRate: { perSecond: config.http.storedBytesPerSecond, burst: config.http.storedBurstBytes },
      now,
      guard: requireBearer(svc.auth),
      onForbidden: svc.auth.access.onForbidden,
      storage: svc.storage,
    },
    [
      opsRoutes({
        metrics,
        version: VERSION,
        checks: deps.checks,
        metricsAccess: metricsAccess(
          { open: config.metrics.open, isScrapeToken: svc.auth.isScrapeToken },
          log,
        ),
      }),
      authRoutes(svc.auth),
      masterdataRoutes(svc.catalog, svc.items),
      notificationsRoutes(svc.notifications),
      deadLettersRoutes(svc.deadLetters),
      webhooksRoutes(svc.webhooks),
      securityEventsRoutes(svc.securityLog),
      requestsRoutes(svc.requests),
      integrationRoutes(svc.operations),
      auditsRoutes(svc.audits, now),
      reportsRoutes(svc.reports),
      ...partRoutes,
    ],
  ).app;
}
