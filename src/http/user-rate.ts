/**
 * Requests per second per user on the costly routes (docs/limits.md): those whose work grows with what
 * is asked (a search answering up to 1,000 items, a report over the whole stock). A token bucket per
 * user name (domain/token-bucket.ts), checked after authentication and before the handler reads the
 * body; past it, 429 `rate_limited` with `Retry-After`, and nothing done.
 */
import type { MiddlewareHandler } from "hono";
import { AppError } from "../domain/errors.js";
import { type BucketRate, tokenBuckets } from "../domain/token-bucket.js";
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
      const retryAfterSeconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
      throw new AppError(
        "rate_limited",
        `more than ${rate.perSecond} requests per second to this user's costly routes`,
        [
          {
            path: "(rate)",
            message: `at most ${rate.perSecond} a second and ${rate.burst} at once (http.costlyRequestsPerSecond, http.costlyBurst)`,
          },
        ],
        { retryAfterSeconds },
      );
    }
    await next();
  };
}
