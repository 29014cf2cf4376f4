/**
 * Retry delays: MQTT reconnects (docs/mqtt.md#backoff-and-reconnects) and webhook retries
 * (docs/webhooks.md#order-and-retries). What the broker did with the last attempt decides:
 *
 * - It refused the connection (no CONNACK: connection refused, connect timed out, cut before CONNACK: a
 *   restart, a node down, a network outage): the step doubles from `minMs` and stops at `maxMs`, and each
 *   delay is drawn from [0, step] ("full jitter"). A broker that returns is thus tried again by every
 *   station within `maxMs`, whatever came before, and the fleet's connects are spread evenly over that
 *   time, not bunched. The step counts refusals since the broker last accepted a connection: a CONNACK
 *   starts it again, so an earlier outage does not carry over.
 * - It accepted the connection (CONNACK) and lost it before it was stable, again and again (flapping:
 *   a duplicate client id, a broker that kicks the client): from the second such loss in a row (with
 *   `mqtt.failoverUrls`, from the one after every node has dropped the station once: a rolling restart
 *   is not a loop, `flapsBeforeBackoff`), the retry waits at least half a step that doubles per loss
 *   up to `flappingMaxMs` ("equal jitter"), so a loop slows down for good and a broker that bans
 *   flapping clients (EMQX flapping detection) is not provoked. Only such losses grow that step; a
 *   refusal never does, and only a stable connection resets it. A restart soon after a connect is one
 *   such loss: its retry comes as after any lost connection, and while the broker is away its refusals
 *   are retried as above.
 *
 * - A clustered broker (`mqtt.failoverUrls`, docs/mqtt.md#a-clustered-broker): after a close the next
 *   address is taken; each other node is tried at once (attempt 0, within FAILOVER_SPREAD_MS), and the
 *   step grows once per round, when the list comes back to the node where the round began. A station
 *   whose node dies thus publishes through another node within a quarter of a second of trying, and a
 *   whole cluster away is backed off as one broker is. A flapping connection keeps its step at every
 *   node: a cluster keeps one client id once across all its nodes. A rolling restart, each node stopped
 *   soon after the station came to it, retries each next node at once.
 * - Failing back (`mqtt.failbackAfterMs`): a station on a later node returns to an earlier one of its
 *   list once that node has answered for a while (`failbackHoldMs`, `failbackTarget`).
 *
 * Pure: the random source and the connection's age are inputs.
 */
export interface BackoffOptions {
  minMs: number;
  maxMs: number;
  flappingMaxMs: number;
}

/** Where a delay stands: its step is `minMs` × 2^attempt (capped); `flaps` above 0 selects equal jitter. */
export interface ReconnectHistory {
  /** The step's exponent: rounds of refusals (MQTT), failed deliveries (webhooks), or flaps beyond the first. */
  attempt: number;
  /** Accepted connections lost before they were stable: equal jitter up to `flappingMaxMs`. */
  flaps: number;
}

/** The delay for one step: full jitter up to `maxMs`, or with `flaps`, equal jitter up to `flappingMaxMs`. */
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
 * A connection that stayed up this long resets the flapping step; a shorter one (accepted, then kicked,
 * as with a duplicate client id: docs/mqtt.md#backoff-and-reconnects) is a flap, and flaps in a row grow
 * it. Greengrass has the same knob (`minimumConnectedTimeBeforeRetryResetSeconds`).
 */
export const STABLE_CONNECTION_MS = 10_000;

/** Whether a connection that lasted `upMs` was stable. */
export function isStable(upMs: number): boolean {
  return upMs >= STABLE_CONNECTION_MS;
}

/**
 * A station whose node of a cluster died tries the next node within this, not within `minMs`: that node
 * is up and already serving, and a second's jitter would only add to the station's failover. Jitter
 * still spreads the attempts (`failoverMinMs`); a flapping connection backs off at every node.
 */
export const FAILOVER_SPREAD_MS = 250;

/** The `minMs` for the next attempt: at most FAILOVER_SPREAD_MS at a node not yet tried in this round. */
export function failoverMinMs(fresh: boolean, minMs: number): number {
  return fresh ? Math.min(minMs, FAILOVER_SPREAD_MS) : minMs;
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

/** What a station carries from one attempt to the next (docs/mqtt.md#backoff-and-reconnects). */
export interface ReconnectState extends ServerRound {
  /** Rounds of refused attempts since the broker last accepted a connection: the step up to `maxMs`. */
  refused: number;
  /** Accepted connections lost before they were stable, in a row since the last stable one. */
  flaps: number;
}

/** Before the first attempt, and after a clean start. */
export const FIRST_ATTEMPT: ReconnectState = { server: 0, roundStart: 0, refused: 0, flaps: 0 };

/** How an attempt ended. */
export type AttemptEnd =
  /** No CONNACK: refused, timed out, or cut before it (a restart, a node down, an outage, a refusal code). */
  | { kind: "refused" }
  /** The broker accepted the connection (CONNACK), which was lost after `upMs`. */
  | { kind: "lost"; upMs: number }
  /** Left on purpose for the earlier address `to` (docs/mqtt.md#a-clustered-broker): there at once. */
  | { kind: "left"; to: number };

/**
 * Flaps in a row before the retry waits out equal jitter, among `count` addresses: one more than there
 * are addresses, and at least two. One short connection is not a loop (a broker restarted soon after the
 * station connected), and its retry comes as after any lost connection. In a cluster, a rolling restart
 * (docs/mqtt.md#backoff-and-reconnects) drops a station at most once per node, each time soon after it
 * came there; only when more connections in a row were short than there are nodes has some node dropped
 * it twice, which is a loop (a duplicate client id, a broker that kicks it), not a restart passing
 * through.
 */
export function flapsBeforeBackoff(count: number): number {
  return Math.max(2, count + 1);
}

/**
 * The next attempt after `end`: where, after how long, and what is carried to the one after. Among `count`
 * addresses. Refusals grow the step only up to `maxMs` and never the flapping step, so a broker that
 * returns is tried within `maxMs` of its return whatever the station lost; a CONNACK starts the refusals'
 * step again. Accepted connections lost before they were stable, again and again, back off towards
 * `flappingMaxMs`, at every node; a stable one resets that.
 */
export function nextAttempt(
  s: ReconnectState,
  end: AttemptEnd,
  count: number,
  opts: BackoffOptions,
  random: () => number = Math.random,
): { state: ReconnectState; delayMs: number } {
  if (end.kind === "left")
    return { state: { server: end.to, roundStart: end.to, refused: 0, flaps: 0 }, delayMs: 0 };
  const lost = end.kind === "lost";
  const flaps = !lost ? s.flaps : isStable(end.upMs) ? 0 : s.flaps + 1;
  const refused = lost ? 0 : s.refused;
  const next = nextServer(s, count, lost);
  const state = { server: next.server, roundStart: next.roundStart, refused, flaps };
  // the step grows once per round, when the list comes back to where the round began
  if (!next.fresh) state.refused++;
  const threshold = flapsBeforeBackoff(count);
  if (lost && flaps >= threshold) {
    const delayMs = backoffDelay({ attempt: flaps - threshold, flaps }, opts, random);
    return { state, delayMs };
  }
  const delayMs = backoffDelay(
    { attempt: next.fresh ? 0 : refused, flaps: 0 },
    { ...opts, minMs: failoverMinMs(next.fresh, opts.minMs) },
    random,
  );
  return { state, delayMs };
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
