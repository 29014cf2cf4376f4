/**
 * What to do after one webhook attempt (docs/webhooks.md#order-and-retries): the pure core of delivery. It reads
 * no clock and does no IO: the time, the answer and the random draw are inputs, so every retry, the
 * horizon and every reason to disable an endpoint can be tested without a network.
 *
 * Only 2xx is success (Standard Webhooks: "a 2xx status code indicates success"). 410 Gone disables the
 * endpoint at once (the receiver said it will never take them). Anything else, a 3xx included (redirects
 * are not followed), a timeout or a broken connection, is tried again after an exponential backoff with
 * full jitter (domain/backoff.ts), or after the receiver's `Retry-After` when that is longer, until the
 * first failure of the oldest undelivered notification is `horizonMs` old: then the endpoint is disabled.
 * Nothing is dropped either way: a disabled endpoint keeps its cursor.
 */
import { backoffDelay } from "./backoff.js";

export interface RetryPolicy {
  /** First retry within this, the step doubling from it… */
  minMs: number;
  /** …up to this. */
  maxMs: number;
  /** Failing this long (since the first failure of the same notification) disables the endpoint. */
  horizonMs: number;
}

/** The retry state of the oldest undelivered notification of one endpoint. */
export interface HeadState {
  /** Failed attempts at it so far. */
  attempts: number;
  /** When the first of them failed (epoch ms), or null while none has. */
  failingSince: number | null;
}

export const FRESH: HeadState = { attempts: 0, failingSince: null };

/** How an attempt ended, as the HTTP shell saw it. */
export type Outcome =
  | { kind: "answered"; status: number; retryAfterMs?: number | undefined }
  | { kind: "timeout" }
  | { kind: "network"; error: string }
  /** The address guard refused the address the name resolved to (docs/webhooks.md#safety). */
  | { kind: "refused"; error: string };

export type Decision =
  | { kind: "delivered" }
  | { kind: "retry"; delayMs: number; head: HeadState }
  | { kind: "disable"; reason: "gone" | "horizon"; head: HeadState };

export const isSuccess = (status: number): boolean => status >= 200 && status <= 299;

export function decide(
  head: HeadState,
  outcome: Outcome,
  now: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): Decision {
  if (outcome.kind === "answered" && isSuccess(outcome.status)) return { kind: "delivered" };
  const since = head.failingSince ?? now;
  const failed: HeadState = { attempts: head.attempts + 1, failingSince: since };
  if (outcome.kind === "answered" && outcome.status === 410)
    return { kind: "disable", reason: "gone", head: failed };
  const horizonAt = since + policy.horizonMs;
  if (now >= horizonAt) return { kind: "disable", reason: "horizon", head: failed };
  const backoff = backoffDelay(
    { attempt: head.attempts, flaps: 0 },
    { minMs: policy.minMs, maxMs: policy.maxMs, flappingMaxMs: policy.maxMs },
    random,
  );
  const asked = outcome.kind === "answered" ? (outcome.retryAfterMs ?? 0) : 0;
  // The last try falls on the horizon itself, so an endpoint is never disabled before it was tried then.
  const delayMs = Math.min(Math.max(backoff, asked), horizonAt - now);
  return { kind: "retry", delayMs, head: failed };
}

/** The longest `Retry-After` honoured: beyond it the backoff's own step decides. */
const RETRY_AFTER_MAX_MS = 24 * 3_600_000;

/**
 * `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP date; undefined when absent or unreadable.
 * Capped at a day, so a typo on the receiver's side cannot park an endpoint for a year.
 */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const v = value.trim();
  const ms = /^\d+$/.test(v) ? Number(v) * 1000 : Date.parse(v) - now;
  if (!Number.isFinite(ms)) return undefined;
  return Math.min(Math.max(ms, 0), RETRY_AFTER_MAX_MS);
}
