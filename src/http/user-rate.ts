/**
 * Per-user rates on HTTP (docs/limits.md), one middleware for each: a token bucket per user name
 * (domain/token-bucket.ts), checked after authentication and before the handler reads the body; past
 * it, 429 `rate_limited` with `Retry-After`, the refusal counted by its reason, and nothing done.
 * - Requests a second on the costly routes: those whose work grows with what is asked (a search
 *   answering up to 1,000 items, a report over the whole stock); a call costs 1.
 * - Bytes a second on the routes that store what they are sent (items, catalogs): a client filling the
 *   disk, and the commits of its large bodies on the event loop, are held to a pace; a call costs its
 *   body's bytes (`bodyBytes`).
 */
import type { Context, MiddlewareHandler } from "hono";
import { type BucketRate, type BucketTerms, rateHold } from "../domain/token-bucket.js";
import type { Metrics, RefusalReason } from "../metrics.js";
import { readBodyText } from "./body.js";
import type { AppEnv } from "./context.js";

export interface PerUserLimit {
  rate: BucketRate;
  /** What a call takes from its user's bucket; none: 1. */
  cost?: (c: Context<AppEnv>) => number | Promise<number>;
  /** The refusal's label in `budget_refusals_total`. */
  reason: Extract<RefusalReason, `http_${string}`>;
  /** What the refusal says is held ("this user's costly routes"). */
  who: string;
  /** The unit and config keys the refusal names; none: the costly routes'. */
  terms?: BucketTerms;
  now: () => number;
  metrics: Metrics;
}

export function limitPerUser(limit: PerUserLimit): MiddlewareHandler<AppEnv> {
  const hold = rateHold(limit.rate, limit.who, limit.terms);
  const refusals = limit.metrics.refusals();
  return async function perUser(c, next) {
    // awaited only when the cost must be read, and the clock read after it (a body may take a while)
    const taken = limit.cost?.(c) ?? 1;
    const cost = typeof taken === "number" ? taken : await taken;
    const refusal = hold.take(c.get("user").username, limit.now(), cost);
    if (refusal) {
      refusals.inc({ reason: limit.reason });
      throw refusal;
    }
    await next();
  };
}

/**
 * A body's bytes, by its `Content-Length` before it is read; one sent without (chunked) is read first,
 * within the body limit, and counted by its size.
 */
export function bodyBytes(c: Context<AppEnv>): number | Promise<number> {
  const length = c.req.header("content-length");
  const declared = length === undefined ? Number.NaN : Number(length);
  if (Number.isSafeInteger(declared) && declared >= 0) return declared;
  return readBodyText(c).then((text) => Buffer.byteLength(text));
}
