/**
 * The MQTT connection: one mqtt.js client per connection, and the only module that starts one
 * (docs/mqtt.md#connection-will-and-session-numbers). mqtt.js's own reconnect is off
 * (`reconnectPeriod: 0`): it has no backoff (docs/mqtt.md#backoff-and-reconnects) and would replay its
 * in-memory store; here each connection gets a fresh client with fresh options (connection-options.ts), a
 * Will that says CONNECTION_BROKEN with the session number, and ONLINE is published on every connect
 * before anything else. Nothing is ever queued while disconnected: the outbox is the queue
 * (docs/mqtt.md#failure-modes-designed-against).
 */
import mqtt, { type IConnackPacket, type MqttClient } from "mqtt";
import type { Logger } from "pino";
import {
  type AttemptEnd,
  FIRST_ATTEMPT,
  failbackHoldMs,
  failbackProbeMs,
  failbackTarget,
  isStable,
  nextAttempt,
  type ReconnectState,
} from "../domain/backoff.js";
import { brokerReachable } from "./broker-reachable.js";
import { createLink, type OwnedLink } from "./connection-link.js";
import { type ConnectionOptions, clientOptions, connectionPayload } from "./connection-options.js";
import type { ConnectionHandlers, Link } from "./link.js";
import { redact } from "./redact.js";

/** How long a clean stop waits for OFFLINE to be acknowledged and the DISCONNECT to be written. */
const STOP_TIMEOUT_MS = 2000;

/** One connection's settings and handlers, and what it holds between events. */
interface Run {
  readonly opts: ConnectionOptions;
  readonly handlers: ConnectionHandlers;
  stopped: boolean;
  client: MqttClient | undefined;
  link: OwnedLink | undefined;
  timer: NodeJS.Timeout | undefined;
  /** The address of the current or last attempt, and what the next delay depends on (backoff.ts). */
  reconnect: ReconnectState;
  upSince: number | undefined;
  lastError: string | undefined;
  session: number;
  requests: RequestsState;
  /** Returning to an earlier address (docs/mqtt.md#a-clustered-broker). */
  failback: Failback;
}

/**
 * A station on a later address of its list watches the earlier ones and returns to one once it has
 * answered long enough (domain/backoff.ts, `failbackTarget`).
 */
interface Failback {
  timer: NodeJS.Timeout | undefined;
  /** The address a planned close goes to, from the moment the connection is being left. */
  leavingFor: number | undefined;
  /** The address returned to, until its connection is known stable or has failed. */
  returnedTo: number | undefined;
  /** Returns in a row that failed: each doubles the next wait. */
  failed: number;
}

/**
 * Whether central's requests can reach the connection: `pending` until the SUBACKs, `refused` when the
 * broker refused a subscription, `subscribed` once every one is granted.
 */
type RequestsState = "pending" | "subscribed" | "refused";

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((ok) => {
    timer = setTimeout(() => ok(undefined), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

function currentUrl(run: Run): string {
  return run.opts.urls[run.reconnect.server] ?? (run.opts.urls[0] as string);
}

/**
 * One subscription. A SUBACK that refuses it (0x80: an ACL, a broker's limit; mqtt.js rejects with the
 * SUBACK on the error) is logged and the connection kept: the notifications still flow, only central's
 * requests cannot arrive. Any other failure is the connection's.
 */
async function subscribe(c: MqttClient, filter: string, qos: 0 | 1, log: Logger): Promise<boolean> {
  try {
    await c.subscribeAsync(filter, { qos });
    return true;
  } catch (err) {
    const code = (err as { packet?: { granted?: unknown[] } }).packet?.granted?.[0];
    if (typeof code !== "number" || code < 0x80) throw err;
    log.error({ filter, code }, "mqtt: subscription refused; central's requests will not arrive");
    return false;
  }
}

/** A new client with the next session number; its events drive the run. */
function connect(run: Run): void {
  const { opts } = run;
  run.timer = undefined;
  if (run.stopped) return;
  run.session = opts.nextSession();
  const s = run.session;
  const url = currentUrl(run);
  const c = mqtt.connect(url, clientOptions(opts, url, s));
  run.client = c;
  c.on("connect", (connack) => onConnect(run, c, connack, s));
  c.on("message", (topic, payload) => {
    if (run.link && run.client === c) run.handlers.onMessage(run.link, topic, payload);
  });
  c.on("error", (err) => {
    run.lastError = err.message;
    opts.log.warn({ err: err.message, url: redact(url) }, "mqtt: connection error");
  });
  c.on("close", () => onClose(run, c));
}

/**
 * CONNACK: the subscriptions, then ONLINE (retained), then the parts, written in that order without
 * waiting for each acknowledgement: the broker takes one connection's packets in order, and a station
 * failing over waits for one round trip, not four, on a node that is taking over a dead node's stations
 * (docs/mqtt.md#a-clustered-broker). One that fails drops the connection (a refused subscription
 * does not: `subscribe`).
 */
function onConnect(run: Run, c: MqttClient, connack: IConnackPacket, s: number): void {
  const { opts, handlers } = run;
  if (run.client !== c || run.stopped) return;
  run.upSince = opts.now();
  run.lastError = undefined;
  const l = createLink(c, connack, s, opts);
  run.link = l;
  run.requests = "pending";
  const url = currentUrl(run);
  opts.log.info({ url: redact(url), session: s, clientId: opts.clientId }, "mqtt: connected");
  watchEarlierNodes(run, l);
  const subscribed = Promise.all(
    opts.subscriptions.map((filter) => subscribe(c, filter, opts.subscriptionQos, opts.log)),
  ).then((granted) => {
    if (run.link === l && l.up) run.requests = granted.every(Boolean) ? "subscribed" : "refused";
  });
  Promise.all([
    subscribed,
    l.publishAsync(opts.topics.connection, connectionPayload("ONLINE", s, opts.now()), true),
    handlers.onUp(l),
  ]).catch((err) => {
    if (!l.up) return; // the connection went away while setting up; close handling follows
    opts.log.error({ err }, "mqtt: connection setup failed");
    l.drop("setup failed");
  });
}

/**
 * On a later address of the list, the earlier ones are checked every `failbackProbeMs` (the first
 * check at a random moment within it, so a fleet's checks are spread) while this connection lasts.
 */
function watchEarlierNodes(run: Run, l: OwnedLink): void {
  const { opts } = run;
  const fb = run.failback;
  if (opts.failbackAfterMs <= 0 || run.reconnect.server === 0) return;
  /** Per earlier address, since when it has answered every check without a break. */
  const answeringSince: (number | undefined)[] = [];
  const holdMs = failbackHoldMs(opts.failbackAfterMs, fb.failed);
  const every = failbackProbeMs(opts.failbackAfterMs);
  const check = async () => {
    fb.timer = undefined;
    const earlier = opts.urls.slice(0, run.reconnect.server);
    const answers = await Promise.all(earlier.map((u) => brokerReachable(u, every)));
    if (run.link !== l || !l.up || run.stopped) return;
    // elapsed time, not the agent's wall clock (which a test or an NTP step may hold or move)
    const now = performance.now();
    answers.forEach((ok, i) => {
      answeringSince[i] = ok ? (answeringSince[i] ?? now) : undefined;
    });
    const target = failbackTarget(answeringSince, run.reconnect.server, now, holdMs);
    if (target === undefined) fb.timer = setTimeout(check, every);
    else void leave(run, l, target);
  };
  fb.timer = setTimeout(check, Math.random() * every);
}

/**
 * Closes the client and handles its close; `graceful`: a DISCONNECT first (the writes in flight given
 * STOP_TIMEOUT_MS), so the broker sends no Will.
 */
async function disconnect(run: Run, c: MqttClient, graceful: boolean): Promise<void> {
  if (graceful) await withTimeout(c.endAsync(false), STOP_TIMEOUT_MS);
  c.end(true);
  if (run.client === c) onClose(run, c);
}

/**
 * A planned close, to return to `target`: the handlers settle what is in flight, then DISCONNECT (so
 * the broker sends no Will: the station is not broken, and its next connection says ONLINE with the
 * next session number); onClose goes straight on to `target`.
 */
async function leave(run: Run, l: OwnedLink, target: number): Promise<void> {
  const { opts, handlers } = run;
  const c = run.client;
  if (!c) return;
  run.failback.leavingFor = target;
  opts.log.info(
    { from: redact(currentUrl(run)), to: redact(opts.urls[target] as string), session: l.session },
    "mqtt: returning to an earlier node of the cluster",
  );
  await withTimeout(handlers.onLeaving?.(l) ?? Promise.resolve(), STOP_TIMEOUT_MS);
  if (run.client !== c) return; // lost meanwhile: onClose already went to `target`
  await disconnect(run, c, true);
}

/** The client closed: its link is down for good; unless stopped, the next attempt after a backoff. */
function onClose(run: Run, c: MqttClient): void {
  const { opts, handlers } = run;
  if (run.client !== c) return;
  run.client = undefined;
  c.removeAllListeners("connect");
  c.removeAllListeners("message");
  c.end(true);
  const fb = run.failback;
  clearTimeout(fb.timer);
  fb.timer = undefined;
  const leavingFor = fb.leavingFor;
  fb.leavingFor = undefined;
  const l = run.link;
  run.link = undefined;
  // what the broker did decides the next delay (docs/mqtt.md#backoff-and-reconnects): an attempt
  // without CONNACK was refused (the broker away), a connection it had accepted was lost after upMs
  let end: AttemptEnd = { kind: "refused" };
  if (leavingFor !== undefined) end = { kind: "left", to: leavingFor };
  else if (l) end = { kind: "lost", upMs: opts.now() - (run.upSince ?? opts.now()) };
  if (l) {
    l.markDown();
    run.upSince = undefined;
    // a planned stop is no fault: info, not the warning of a loss (docs/operations.md#logs)
    if (run.stopped) opts.log.info({ session: l.session }, "mqtt: disconnected (stopping)");
    else if (leavingFor === undefined)
      opts.log.warn({ session: l.session, lastError: run.lastError }, "mqtt: connection lost");
    handlers.onDown(l);
  }
  if (fb.returnedTo !== undefined && fb.returnedTo === run.reconnect.server && leavingFor === undefined) {
    // the connection (or attempt) at the address returned to ended: the return held, or it failed
    fb.failed = end.kind === "lost" && isStable(end.upMs) ? 0 : fb.failed + 1;
    fb.returnedTo = undefined;
  }
  if (run.stopped) return;
  const next = nextAttempt(run.reconnect, end, opts.urls.length, {
    minMs: opts.reconnectMinMs,
    maxMs: opts.reconnectMaxMs,
    flappingMaxMs: opts.reconnectFlappingMaxMs,
  });
  run.reconnect = next.state;
  // a planned return: straight to that address, as a new round
  if (leavingFor !== undefined) fb.returnedTo = leavingFor;
  handlers.onReconnectScheduled?.(next.delayMs);
  run.timer = setTimeout(() => connect(run), next.delayMs);
}

/** Clean stop: OFFLINE (retained), then DISCONNECT, so the broker does not send the Will. */
async function stop(run: Run): Promise<void> {
  run.stopped = true;
  if (run.timer) clearTimeout(run.timer);
  run.timer = undefined;
  clearTimeout(run.failback.timer);
  run.failback.timer = undefined;
  const c = run.client;
  const l = run.link;
  if (!c) return;
  const up = l?.up === true;
  if (l && up)
    await withTimeout(
      l
        .publishAsync(
          run.opts.topics.connection,
          connectionPayload("OFFLINE", l.session, run.opts.now()),
          true,
        )
        .catch(() => {}),
      STOP_TIMEOUT_MS,
    );
  await disconnect(run, c, up);
}

export function createConnection(opts: ConnectionOptions, handlers: ConnectionHandlers) {
  const run: Run = {
    opts,
    handlers,
    stopped: true,
    client: undefined,
    link: undefined,
    timer: undefined,
    reconnect: FIRST_ATTEMPT,
    upSince: undefined,
    lastError: undefined,
    session: 0,
    requests: "pending",
    failback: {
      timer: undefined,
      leavingFor: undefined,
      returnedTo: undefined,
      failed: 0,
    },
  };
  return {
    start(): void {
      if (!run.stopped) return;
      run.stopped = false;
      run.reconnect = { ...run.reconnect, refused: 0, flaps: 0 };
      connect(run);
    },
    /** Clean stop: OFFLINE (retained), then DISCONNECT (docs/mqtt.md#connection-will-and-session-numbers). */
    stop: (): Promise<void> => stop(run),
    status() {
      return {
        url: currentUrl(run),
        connected: run.link?.up ?? false,
        /** RequestsState of the current connection (meaningful while connected). */
        requests: run.requests,
        session: run.session,
        upSince: run.upSince,
        lastError: run.lastError,
      };
    },
    get link(): Link | undefined {
      return run.link?.up ? run.link : undefined;
    },
  };
}

export type Connection = ReturnType<typeof createConnection>;
