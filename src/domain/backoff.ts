/**
 * Retry delays: MQTT reconnects (docs/mqtt.md#backoff-and-reconnects) and webhook retries
 * (docs/webhooks.md#retries). Two cases, told apart by what came before:
 *
 * - The broker cannot be reached (a restart, a network outage): the step doubles from `minMs` and stops
 *   at `maxMs`, and each delay is drawn from [0, step] ("full jitter"). After a stable connection is
 *   lost the first retry comes within `minMs`; a broker that returns is tried again by every station
 *   within `maxMs`, and the fleet's connects are spread evenly over that time, not bunched.
 * - Connections are accepted and then lost before they were stable (flapping: a duplicate client id, a
 *   broker that kicks the client): the step keeps doubling up to `flappingMaxMs`, and each delay is at
 *   least half of it ("equal jitter"), so a loop slows down for good and a broker that bans flapping
 *   clients (EMQX flapping detection) is not provoked.
 *
 * Pure: the random source is an input.
 */
export interface BackoffOptions {
  minMs: number;
  maxMs: number;
  flappingMaxMs: number;
}

/** A station's reconnects since its last stable connection. */
export interface ReconnectHistory {
  /** Attempts since then: failed connects and short-lived connections alike. */
  attempt: number;
  /** Connections since then that the broker accepted but that did not last STABLE_CONNECTION_MS. */
  flaps: number;
}

export function backoffDelay(
  h: ReconnectHistory,
  opts: BackoffOptions,
  random: () => number = Math.random,
): number {
  const grown = opts.minMs * 2 ** Math.min(Math.max(h.attempt, 0), 30);
  if (h.flaps === 0) return Math.round(random() * Math.min(opts.maxMs, grown));
  const step = Math.min(Math.max(opts.flappingMaxMs, opts.maxMs), grown);
  return Math.round(step / 2 + random() * (step / 2));
}

/**
 * A connection that stayed up this long resets the backoff; a shorter one (accepted, then kicked, as
 * with a duplicate client id: docs/mqtt.md#backoff-and-reconnects) counts as flapping and keeps growing
 * it. Greengrass has the same knob (`minimumConnectedTimeBeforeRetryResetSeconds`).
 */
export const STABLE_CONNECTION_MS = 10_000;
