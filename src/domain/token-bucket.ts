/**
 * Token buckets, one per key (a user name): each holds up to `burst` tokens and refills at `perSecond`;
 * a call takes one or is refused with the time until the next token (docs/limits.md). Pure: the time is
 * an argument. A bucket full again is forgotten, so the table holds only keys seen within the last
 * `burst / perSecond` seconds.
 *
 * @example const b = tokenBuckets({ perSecond: 20, burst: 40 }); const v = b.take("central", Date.now());
 */
import { AppError } from "./errors.js";

export interface BucketRate {
  perSecond: number;
  burst: number;
}

export type Take = { ok: true } | { ok: false; retryAfterMs: number };

export function tokenBuckets(rate: BucketRate) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const refill = (b: { tokens: number; at: number }, now: number) => {
    b.tokens = Math.min(rate.burst, b.tokens + ((now - b.at) / 1000) * rate.perSecond);
    b.at = now;
  };
  /** Forgets buckets full again (at most once per call, over all keys only when the table grew). */
  const prune = (now: number) => {
    for (const [key, b] of buckets) {
      refill(b, now);
      if (b.tokens >= rate.burst) buckets.delete(key);
    }
  };
  let pruneAt = 64;
  return {
    take(key: string, now: number): Take {
      let b = buckets.get(key);
      if (!b) {
        if (buckets.size >= pruneAt) {
          prune(now);
          pruneAt = Math.max(64, buckets.size * 2);
        }
        b = { tokens: rate.burst, at: now };
        buckets.set(key, b);
      }
      refill(b, now);
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return { ok: true };
      }
      return { ok: false, retryAfterMs: Math.ceil(((1 - b.tokens) / rate.perSecond) * 1000) };
    },
    get size() {
      return buckets.size;
    },
  };
}

/**
 * The refusal past a bucket, the same over HTTP and MQTT: 429 `rate_limited`, the rate and its keys
 * named, and when to try again (docs/limits.md).
 */
export function rateLimited(rate: BucketRate, retryAfterMs: number, who: string): AppError {
  const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError(
    "rate_limited",
    `more than ${rate.perSecond} requests per second to ${who}`,
    [
      {
        path: "(rate)",
        message: `at most ${rate.perSecond} a second and ${rate.burst} at once (http.costlyRequestsPerSecond, http.costlyBurst)`,
      },
    ],
    { retryAfterSeconds },
  );
}
