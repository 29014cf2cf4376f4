/**
 * Requests per second per user on the costly routes (docs/limits.md): those whose work grows with what
 * is asked (a search answering up to 1,000 items, a report over the whole stock). A token bucket per
 * user name (domain/token-bucket.ts), checked after authentication and before the handler reads the
 * body; past it, 429 `rate_limited` with `Retry-After`, and nothing done.
 */
import type { MiddlewareHandler } from "hono";
import { type BucketRate, rateLimited, tokenBuckets } from "../domain/token-bucket.js";
import type { Metrics } from "../metrics.js";
import type { AppEnv } from "./context.js";

export function limitUserRate(
  rate: BucketRate,
  now: () => number,
  metrics: Metrics,
): MiddlewareHandler<AppEnv> {
  const buckets = tokenBuckets(rate);
  const refusals = metrics.refusals();
  return async function userRate(c, next) {
    const verdict = buckets.take(c.get("user").username, now());
    if (!verdict.ok) {
      refusals.inc({ reason: "http_rate" });
      throw rateLimited(rate, verdict.retryAfterMs, "this user's costly routes");
    }
    await next();
  };
}
