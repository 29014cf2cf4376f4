/**
 * Requests per second per user on the costly routes (docs/limits.md): those whose work grows with what
 * is asked (a search answering up to 1,000 items, a report over the whole stock). A token bucket per
 * user name (domain/token-bucket.ts), checked after authentication and before the handler reads the
 * body; past it, 429 `rate_limited` with `Retry-After`, and nothing done.
 */
import type { MiddlewareHandler } from "hono";
import { type BucketRate, rateLimited, STORED_TERMS, tokenBuckets } from "../domain/token-bucket.js";
import type { Metrics } from "../metrics.js";
import { readBodyText } from "./body.js";
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

/**
 * Bytes a second per user that the routes storing what they are sent (items, catalogs) take in
 * (docs/limits.md): a client filling the disk, and the commits of its large bodies on the event loop,
 * are held to a pace. A body is counted by its `Content-Length` before it is read; one sent without
 * (chunked) is read first, within the body limit, and counted by its size. Past it, 429
 * `rate_limited` with `Retry-After`.
 */
export function limitStoredBytes(
  rate: BucketRate,
  now: () => number,
  metrics: Metrics,
): MiddlewareHandler<AppEnv> {
  const buckets = tokenBuckets(rate);
  const refusals = metrics.refusals();
  return async function storedBytes(c, next) {
    const length = c.req.header("content-length");
    const declared = length === undefined ? Number.NaN : Number(length);
    const bytes =
      Number.isSafeInteger(declared) && declared >= 0 ? declared : Buffer.byteLength(await readBodyText(c));
    const verdict = buckets.take(c.get("user").username, now(), bytes);
    if (!verdict.ok) {
      refusals.inc({ reason: "http_stored_bytes" });
      throw rateLimited(rate, verdict.retryAfterMs, "this user's stored bodies", STORED_TERMS);
    }
    await next();
  };
}
