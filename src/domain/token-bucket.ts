/**
 * Token buckets, one per key (a user name): each holds up to `burst` tokens and refills at `perSecond`;
 * a call takes one (or a body its bytes) or is refused with the time until there are enough (docs/limits.md). Pure: the time is
 * an argument. A bucket full again is forgotten, so the table holds only keys seen within the last
 * `burst / perSecond` seconds. `rateHold` joins the buckets to the words of their refusal: the one hold
 * that HTTP (per user) and MQTT (the station's one caller) both put a request through.
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
    /** Takes `cost` tokens (a request: 1; a body: its bytes, at most the burst, so it can always pass). */
    take(key: string, now: number, cost = 1): Take {
      const need = Math.min(Math.max(cost, 0), rate.burst);
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
      if (b.tokens >= need) {
        b.tokens -= need;
        return { ok: true };
      }
      return { ok: false, retryAfterMs: Math.ceil(((need - b.tokens) / rate.perSecond) * 1000) };
    },
    get size() {
      return buckets.size;
    },
  };
}

/** What a bucket holds to, for the refusal's words: its unit and the config keys that set it. */
export interface BucketTerms {
  unit: string;
  keys: string;
}

export const COSTLY_TERMS: BucketTerms = {
  unit: "requests",
  keys: "http.costlyRequestsPerSecond, http.costlyBurst",
};
export const STORED_TERMS: BucketTerms = {
  unit: "bytes",
  keys: "http.storedBytesPerSecond, http.storedBurstBytes",
};

/**
 * The refusal past a bucket, the same over HTTP and MQTT: 429 `rate_limited`, the rate and its keys
 * named, and when to try again (docs/limits.md).
 */
export function rateLimited(
  rate: BucketRate,
  retryAfterMs: number,
  who: string,
  terms: BucketTerms = COSTLY_TERMS,
): AppError {
  const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError(
    "rate_limited",
    `more than ${rate.perSecond} ${terms.unit} per second to ${who}`,
    [
      {
        path: "(rate)",
        message: `at most ${rate.perSecond} ${terms.unit} a second and ${rate.burst} at once (${terms.keys})`,
      },
    ],
    { retryAfterSeconds },
  );
}

/**
 * The buckets of one rate with the refusal past them: `take` takes `cost` tokens from `key`'s bucket and
 * answers nothing, or the refusal (`rateLimited`) to throw, which the caller counts first.
 *
 * @example const hold = rateHold(rate, "this user's costly routes"); const refusal = hold.take("ana", now);
 */
export function rateHold(rate: BucketRate, who: string, terms: BucketTerms = COSTLY_TERMS) {
  const buckets = tokenBuckets(rate);
  return {
    take(key: string, now: number, cost = 1): AppError | undefined {
      const verdict = buckets.take(key, now, cost);
      return verdict.ok ? undefined : rateLimited(rate, verdict.retryAfterMs, who, terms);
    },
  };
}

export type RateHold = ReturnType<typeof rateHold>;
