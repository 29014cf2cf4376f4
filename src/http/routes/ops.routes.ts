import type { Hono, MiddlewareHandler } from "hono";
import { z } from "zod";
import type { Metrics } from "../../metrics.js";
import { evaluateReadiness, type ReadinessCheck } from "../../services/status/station-status.js";
import type { AppEnv } from "../context.js";
import type { RouteRegistry } from "../openapi.js";
import { route } from "../route.js";
import { docsRoutes } from "./docs.routes.js";

export type { ReadinessCheck };

const readySchema = z.object({
  ready: z.boolean(),
  checks: z.record(z.string(), z.object({ ok: z.boolean(), detail: z.string().optional() })),
});

/**
 * Health, readiness, metrics and the API description. Open, as they carry no station data, except
 * `/metrics`, which `metricsAccess` guards (metrics-access.ts): not with an API token.
 */
export function opsRoutes(opts: {
  metrics: Metrics;
  checks: readonly ReadinessCheck[];
  version: string;
  metricsAccess: MiddlewareHandler<AppEnv>;
}) {
  return (app: Hono<AppEnv>, registry: RouteRegistry) => {
    route(
      app,
      registry,
      {
        method: "get",
        path: "/healthz",
        tag: "ops",
        summary: "Liveness: the process answers",
        auth: false,
        responses: { 200: { description: "alive", schema: z.object({ status: z.literal("ok") }) } },
      },
      (c) => c.json({ status: "ok" }),
    );
    route(
      app,
      registry,
      {
        method: "get",
        path: "/readyz",
        tag: "ops",
        summary: "Readiness: database open and migrated, and every other check",
        auth: false,
        responses: {
          200: { description: "ready", schema: readySchema },
          503: { description: "not ready; `checks` says which part", schema: readySchema },
        },
      },
      (c) => {
        const { ready, checks } = evaluateReadiness(opts.checks);
        return c.json({ ready, checks }, ready ? 200 : 503);
      },
    );
    route(
      app,
      registry,
      {
        method: "get",
        path: "/metrics",
        tag: "ops",
        summary: "Prometheus metrics (text format 0.0.4)",
        description:
          "Takes the scrape token (`metrics.token`, or `metricsToken` of `initial-credentials.json`) as " +
          "`Authorization: Bearer <token>`, not an API user's token; open without one when `metrics.open` is set.",
        auth: false,
        produces: "text/plain",
        responses: {
          200: { description: "metrics" },
          401: { description: "no scrape token, or a wrong one", codes: ["unauthorized"] },
        },
      },
      opts.metricsAccess,
      async (c) => c.body(await opts.metrics.render(), 200, { "Content-Type": opts.metrics.contentType }),
    );
    docsRoutes(app, registry, opts.version);
  };
}
