/**
 * Retry delays: MQTT reconnects (docs/mqtt.md#backoff-and-reconnects) and webhook retries
 * (docs/webhooks.md#order-and-retries). Two cases, told apart by what came before:
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
 * - A clustered broker (`mqtt.failoverUrls`, docs/mqtt.md#a-clustered-broker): after a close the next
 *   address is taken; each other node is tried at once (attempt 0, within FAILOVER_SPREAD_MS), and the
 *   step grows once per round, when the list comes back to the node where the round began. A station
 *   whose node dies thus publishes through another node within a quarter of a second of trying, and a
 *   whole cluster away is backed off as one broker is.
 * - Failing back (`mqtt.failbackAfterMs`): a station on a later node returns to an earlier one of its
 *   list once that node has answered for a while (`failbackHoldMs`, `failbackTarget`).
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

/**
 * A station whose node of a cluster died tries the next node within this, not within `minMs`: that node
 * is up and already serving, and a second's jitter would only add to the station's failover. Jitter
 * still spreads the attempts, and flapping still backs off as before (`failoverMinMs`).
 */
export const FAILOVER_SPREAD_MS = 250;

/**
 * The `minMs` for the next attempt: at most FAILOVER_SPREAD_MS when it goes to a node not yet tried in
 * this round (`fresh`) and no connection has flapped; otherwise `minMs`.
 */
export function failoverMinMs(fresh: boolean, flaps: number, minMs: number): number {
  return fresh && flaps === 0 ? Math.min(minMs, FAILOVER_SPREAD_MS) : minMs;
}

/** Where a station is in its list of broker addresses: the one last tried, and where the round began. */
export interface ServerRound {
  server: number;
  roundStart: number;
}

/**
 * The address for the next attempt after a close. `lost`: a connection was up (a new round begins at
 * its node). `fresh`: a node not yet tried in this round, to be tried at once.
 */
export function nextServer(r: ServerRound, count: number, lost: boolean): ServerRound & { fresh: boolean } {
  const roundStart = lost ? r.server : r.roundStart;
  const server = (r.server + 1) % Math.max(count, 1);
  return { server, roundStart, fresh: server !== roundStart };
}

/**
 * Failing back (docs/mqtt.md#a-clustered-broker): a station on a later address of its list checks the
 * earlier ones this often, so that it returns to its own node once that node is back, and a cluster's
 * stations do not all end up on the node that happened to survive the last failure (the next death of
 * that node would then move every station at once).
 */
const FAILBACK_PROBE_MS = 2000;

/** How often the earlier addresses are checked: every FAILBACK_PROBE_MS, or twice per `afterMs` if shorter. */
export function failbackProbeMs(afterMs: number): number {
  return Math.max(50, Math.min(FAILBACK_PROBE_MS, Math.round(afterMs / 2)));
}

/** The longest a station waits before returning to an earlier address, however often returns failed. */
const FAILBACK_MAX_HOLD_MS = 3_600_000;

/**
 * How long an earlier address must have answered before the station returns to it: drawn from
 * [afterMs, 2 × afterMs], so a fleet's returns to a node that came back are spread over that time, not
 * bunched; doubled for each return in a row that failed (the node refused the connection or lost it
 * before it was stable), so a node that accepts TCP but not MQTT is not returned to in a loop.
 */
export function failbackHoldMs(
  afterMs: number,
  failedReturns: number,
  random: () => number = Math.random,
): number {
  const base = afterMs * (1 + random());
  return Math.round(Math.min(FAILBACK_MAX_HOLD_MS, base * 2 ** Math.min(Math.max(failedReturns, 0), 30)));
}

/**
 * The address to return to, if any: the first one before `current` that has answered without a break
 * (`answeringSince`, by index; undefined: not answering) for at least `holdMs`.
 */
export function failbackTarget(
  answeringSince: readonly (number | undefined)[],
  current: number,
  now: number,
  holdMs: number,
): number | undefined {
  for (let i = 0; i < current; i++) {
    const since = answeringSince[i];
    if (since !== undefined && now - since >= holdMs) return i;
  }
  return undefined;
}
