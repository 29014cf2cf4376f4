import { randomUUID } from "node:crypto";
import { Hono, type MiddlewareHandler } from "hono";
import type { Logger } from "pino";
import { internalErrorBody } from "../domain/error-body.js";
import { AppError, isAppError } from "../domain/errors.js";
import { type BucketRate, STORED_TERMS } from "../domain/token-bucket.js";
import type { Metrics } from "../metrics.js";
import {
  isStorage,
  type StorageHealth,
  sqliteCode,
  storageAppError,
} from "../services/unit-of-work/unit-of-work.js";
import { holdToAnswerBudget } from "./answer-budget.js";
import { closeIfBodyUnread, limitBody } from "./body.js";
import type { AppEnv } from "./context.js";
import { sendError } from "./errors.js";
import { RouteRegistry } from "./openapi.js";
import type { OnForbidden } from "./route-spec.js";
import { perTurn } from "./turn-budget.js";
import { bodyBytes, limitPerUser } from "./user-rate.js";

export interface HttpDeps {
  log: Logger;
  /** Authenticates routes declared with `auth: true`. */
  guard: MiddlewareHandler<AppEnv>;
  metrics: Metrics;
  /** Told of every caller refused for their role (services/auth/access-events.ts). */
  onForbidden?: OnForbidden;
  bodyLimitBytes: number;
  /** Requests a second per user to the costly routes (user-rate.ts); none: not held. */
  costlyRate?: BucketRate;
  /** Bytes a second per user to the routes that store bodies (user-rate.ts); none: not held. */
  storedRate?: BucketRate;
  now?: () => number;
  /**
   * Told of a write the disk refused outside the unit of work (a login's token): it is answered like one
   * inside it (503 `storage_full`/`storage_error`) and belongs to the same episode.
   */
  storage?: Pick<StorageHealth, "failed">;
}

const STATUS_CLASSES = ["1xx", "1xx", "2xx", "3xx", "4xx", "5xx"];

/** `404` → `4xx`: the latency histogram's label, so its series stay few (one per class, not per code). */
const statusClass = (status: number): string => STATUS_CLASSES[Math.trunc(status / 100)] ?? "5xx";

/** Mounts one group of routes; it records each route in the registry (OpenAPI, 405 answers). */
export type RouteGroup = (app: Hono<AppEnv>, registry: RouteRegistry) => void;

/**
 * The HTTP application. Order matters: request id and metrics wrap everything, the body limit runs
 * before any handler reads a body, and every error leaves through one `onError` (Hono's own style).
 */
export function createHttpApp(
  deps: HttpDeps,
  groups: RouteGroup[],
): { app: Hono<AppEnv>; registry: RouteRegistry } {
  const { log, metrics } = deps;
  const now = deps.now ?? Date.now;
  const rate = deps.costlyRate
    ? limitPerUser({
        rate: deps.costlyRate,
        reason: "http_rate",
        who: "this user's costly routes",
        now,
        metrics,
      })
    : undefined;
  // after the user's rate, the answers all clients left unread (answer-budget.ts)
  const answers = holdToAnswerBudget(metrics);
  const costly: MiddlewareHandler<AppEnv> | undefined = rate
    ? async (c, next) => {
        await rate(c, async () => {
          await answers(c, next);
        });
      }
    : undefined;
  const stored = deps.storedRate
    ? limitPerUser({
        rate: deps.storedRate,
        cost: bodyBytes,
        reason: "http_stored_bytes",
        who: "this user's stored bodies",
        terms: STORED_TERMS,
        now,
        metrics,
      })
    : undefined;
  const registry = new RouteRegistry(deps.guard, deps.onForbidden, costly, stored);
  const refusals = metrics.refusals();
  const app = new Hono<AppEnv>();

  const requests = metrics.counter("http_requests_total", "HTTP requests by route, method and status", [
    "method",
    "route",
    "status",
  ]);
  const latency = metrics.histogram(
    "http_request_duration_seconds",
    "HTTP request latency by route template, method and status class (2xx, 4xx, …)",
    ["method", "route", "status_class"],
  );

  app.use("*", async function requestContext(c, next) {
    const started = performance.now();
    const incoming = c.req.header("x-request-id");
    const requestId = incoming && /^[\w.-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    c.set("requestId", requestId);
    c.set("route", "unmatched");
    c.header("X-Request-Id", requestId);
    await next();
    closeIfBodyUnread(c);
    const seconds = (performance.now() - started) / 1000;
    const { status } = c.res;
    const method = c.req.method;
    const route = c.get("route");
    // label objects in the label names' order: prom-client hashes them by that order, unsorted
    requests.inc({ method, route, status: String(status) });
    if (status === 413) refusals.inc({ reason: "http_body" });
    latency.observe({ method, route, status_class: statusClass(status) }, seconds);
    // a 503 is a refusal its owner logs once (a full disk's episode, the outbox's thresholds), not a fault
    if (status >= 500 && status !== 503) log.error({ requestId, route, method, status }, "request failed");
    else if (log.isLevelEnabled("debug")) log.debug({ requestId, route, method, status }, "request");
  });

  // a burst of requests is spread over event-loop turns so device I/O is not held up (turn-budget.ts)
  app.use("*", perTurn(4));

  app.use("*", limitBody(deps.bodyLimitBytes));

  for (const group of groups) group(app, registry);

  app.notFound((c) => {
    const allowed = registry.methodsFor(c.req.path);
    if (allowed.length) {
      c.header("Allow", allowed.join(", "));
      return sendError(
        c,
        new AppError("method_not_allowed", `${c.req.method} is not allowed on ${c.req.path}`, [
          { path: "method", message: `allowed: ${allowed.join(", ")}` },
        ]),
        registry.isTokenEndpoint(c.req.path),
      );
    }
    return sendError(c, new AppError("route_not_found", `no route ${c.req.method} ${c.req.path}`));
  });

  app.onError((err, c) => {
    if (isAppError(err)) return sendError(c, err, registry.isTokenEndpoint(c.req.path));
    const code = sqliteCode(err);
    if (code !== undefined && isStorage(err)) {
      deps.storage?.failed(code, err);
      return sendError(c, storageAppError(code));
    }
    log.error({ err, requestId: c.get("requestId") }, "unhandled error");
    return c.json(internalErrorBody(c.get("requestId")), 500);
  });

  return { app, registry };
}
