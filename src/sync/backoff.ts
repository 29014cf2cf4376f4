/**
 * Reconnect delays: exponential from `minMs` to `maxMs`, with "equal jitter" (a random point in the
 * upper half of the step), so that a fleet of stations does not reconnect in lockstep after a broker
 * restart, and a broker that bans flapping clients is not hammered (docs/mqtt.md#backoff-and-reconnects, docs/mqtt.md#connection-will-and-session-numbers).
 * Pure: the random source is an input.
 */
export interface BackoffOptions {
  minMs: number;
  maxMs: number;
}

export function backoffDelay(
  attempt: number,
  opts: BackoffOptions,
  random: () => number = Math.random,
): number {
  const step = Math.min(opts.maxMs, opts.minMs * 2 ** Math.min(Math.max(attempt, 0), 30));
  return Math.round(step / 2 + random() * (step / 2));
}

/**
 * A connection that stayed up this long resets the backoff; a shorter one (accepted, then kicked, as
 * with a duplicate client id: docs/mqtt.md#backoff-and-reconnects) keeps growing it. Greengrass has the same knob
 * (`minimumConnectedTimeBeforeRetryResetSeconds`).
 */
export const STABLE_CONNECTION_MS = 10_000;
