/**
 * The MQTT sync (docs/mqtt.md; docs/architecture.md#mqtt): the outbox relay, retained state and requests
 * from central over one connection per station, and the embedded broker when `mqtt.url` is `embedded`.
 * Construction does nothing; `start()` never waits for the broker (the station works offline), `stop()`
 * says OFFLINE. Below: the parts that live as long as the agent, the handlers that wire them to the
 * connection and the bus, and the lifecycle; where to connect is broker-endpoint.ts.
 */

import type { Logger } from "pino";
import type { MqttRepo } from "../db/mqtt.repo.js";
import { createMqttRepo } from "../db/mqtt.repo.js";
import type { Sqlite } from "../db/open.js";
import type { OutboxRepo } from "../db/outbox.repo.js";
import type { EventBus } from "../events.js";
import type { Metrics } from "../metrics.js";
import type { UnitOfWork } from "../services/unit-of-work/unit-of-work.js";
import { brokerEndpoint, connectionOptions, readTls, type SyncConfig } from "./broker-endpoint.js";
import type { BrokerAccess, BrokerGuardOptions, VerifyUser } from "./broker-guard.js";
import type { Connection } from "./connection.js";
import type { EmbeddedBroker } from "./embedded-broker.js";
import { readinessChecks, registerMetrics } from "./health.js";
import type { ConnectionHandlers, Link } from "./link.js";
import { createOutboxMonitor } from "./outbox-monitor.js";
import { createPublisher } from "./publisher.js";
import { redact } from "./redact.js";
import { createRequestHandler, type RequestOperations } from "./requests.js";
import { createRetainedState, type RetainedStateDeps } from "./retained-state.js";
import type { Topics } from "./topics.js";
import { topicsFor } from "./topics.js";

export type { SyncConfig } from "./broker-endpoint.js";

/** The link to central as the operator screen reads it (station/screen/state/station-types.ts `CentralLink`). */
export interface CentralLinkView {
  connected: boolean;
  undelivered: number;
  limit: number;
  undeliveredBytes: number;
  limitBytes: number | undefined;
}

/**
 * The parts of the MQTT sync that live as long as the agent, whether or not a connection is up: the
 * outbox monitor, the publisher, retained state and the request handler, with the sync's metrics.
 */

export interface SyncDeps {
  config: SyncConfig;
  sqlite: Sqlite;
  outbox: OutboxRepo;
  bus: EventBus;
  /** Every transaction opens here; its backlog estimate is corrected by the publisher and the monitor. */
  unitOfWork: UnitOfWork;
  operations: RequestOperations;
  stationSnapshot: RetainedStateDeps["stationSnapshot"];
  requests?: RetainedStateDeps["requests"];
  metrics: Metrics;
  /** The embedded broker's user check: the user and its role decide (broker-acl.ts). */
  verifyBrokerUser: VerifyUser;
  /** Connects the embedded broker refused before any password check (the security event log). */
  brokerRefused?: BrokerGuardOptions["onRefused"];
  /** Role refusals and revocation of users' connections (services/auth). */
  brokerAccess?: BrokerAccess;
  log: Logger;
  now(): number;
}

/** What the parts share: the station's topics, the sync's tables and its log. */
export interface SyncContext {
  topics: Topics;
  repo: MqttRepo;
  log: Logger;
  /** Whether a connection is up right now, for the `mqtt_connected` gauge. */
  connected(): boolean;
}

const STATION_REFRESH_MS = 30_000;
/**
 * A read-only answer (a replay page) is at most this large, or `mqtt.maxMessageBytes` if smaller: a
 * page is one message on the same connection as the ordered notifications, and should not hold them up
 * for long (docs/mqtt.md#replaying-notifications).
 */
const ANSWER_MAX_BYTES = 256 * 1024;
/** docs/mqtt.md#gaps-and-the-high-water-mark: "updated at least every few seconds while it changes". */
const HIGH_WATER_MS = 2_000;

export function createSyncParts(deps: SyncDeps, ctx: SyncContext) {
  const cfg = deps.config.mqtt;
  const { metrics } = deps;
  const { topics, repo, log } = ctx;
  const monitor = createOutboxMonitor({
    outbox: deps.outbox,
    mqtt: repo,
    warnDepth: cfg.outboxWarnDepth,
    warnAgeSeconds: cfg.outboxWarnAgeSeconds,
    limit: deps.config.outbox.maxUndelivered,
    pruneDeliveredAfterHours: cfg.pruneDeliveredAfterHours,
    inboxRetentionHours: cfg.inboxRetentionHours,
    setUndelivered: (n) => deps.unitOfWork.setUndelivered(n),
    bytes: {
      estimate: () => deps.unitOfWork.undeliveredBytes(),
      set: (n) => deps.unitOfWork.setUndeliveredBytes(n),
      limit: deps.config.outbox.maxUndeliveredBytes,
    },
    // The publisher is built below; this is only called once started.
    draining: () => publisher.draining(),
    now: deps.now,
    log,
  });
  const counters = registerMetrics(metrics, monitor, ctx.connected);

  const publisher = createPublisher({
    outbox: deps.outbox,
    unitOfWork: deps.unitOfWork,
    topic: topics.notification,
    window: cfg.inflightWindow,
    maxMessageBytes: cfg.maxMessageBytes,
    maxDeliveryAttempts: cfg.maxDeliveryAttempts,
    now: deps.now,
    log,
    onPublished: (n) => counters.published.inc(n),
    onRefused: (reason) => counters.refused.inc({ reason }),
    onCaughtUp: () => deps.unitOfWork.setUndelivered(0),
  });
  const retained = createRetainedState({
    topics,
    stationSnapshot: deps.stationSnapshot,
    requests: deps.requests,
    window: cfg.inflightWindow,
    maxStateBytes: cfg.retainedStateMaxBytes,
    maxDirty: 10_000,
    stationRefreshMs: STATION_REFRESH_MS,
    // a tenth of the retention, within 1 s … 1 min: cleared at most that much late
    sweepMs: Math.min(60_000, Math.max(1_000, cfg.retainTerminalSeconds * 100)),
    highWaterMs: HIGH_WATER_MS,
    log,
  });
  const requests = createRequestHandler({
    unitOfWork: deps.unitOfWork,
    mqtt: repo,
    operations: deps.operations,
    bodyLimitBytes: deps.config.http.bodyLimitBytes,
    answerBytes: Math.min(cfg.maxMessageBytes, ANSWER_MAX_BYTES),
    costlyRate: { perSecond: deps.config.http.costlyRequestsPerSecond, burst: deps.config.http.costlyBurst },
    storedRate: {
      perSecond: deps.config.http.storedBytesPerSecond,
      burst: deps.config.http.storedBurstBytes,
    },
    now: deps.now,
    log,
    onHandled: (name, outcome) => counters.requests.inc({ name, outcome }),
    onRateLimited: (reason) => metrics.refusals().inc({ reason }),
  });
  return { monitor, publisher, retained, requests, counters };
}

export type SyncParts = ReturnType<typeof createSyncParts>;

/**
 * What the sync does on a connection's events and on the agent's bus: a new connection republishes the
 * station's retained state, then drains the outbox while the requests' retained states follow
 * (docs/mqtt.md#connection-will-and-session-numbers); a request is answered on its response topic
 * (docs/mqtt.md#requests-and-responses); commits wake the publisher and retained state
 * (docs/architecture.md#the-event-bus).
 */

/** The bus owner the sync's subscriptions are registered (and dropped) under. */
export const OWNER = "sync";

/**
 * A clean stop waits this long for the last PUBACKs before it says OFFLINE; a return to an earlier node
 * before it closes the connection.
 */
const SETTLE_MS = 2000;

export function connectionHandlers(
  parts: Pick<SyncParts, "publisher" | "retained" | "requests" | "counters">,
  topics: Topics,
  log: Logger,
): ConnectionHandlers {
  const { publisher, retained, requests, counters } = parts;
  const send = (link: Link, name: string, response: string) =>
    // Not queued when the link broke meanwhile: a retry with the same transaction gets it from the inbox.
    link.publish(topics.response(name), response, false, (err) => {
      if (err) log.warn({ request: name, err: err.message }, "mqtt: response not delivered");
    });
  const notProcessed = (name: string, err: unknown) =>
    log.error({ err, request: name }, "mqtt: request not processed");
  /** Answers one request: at once, or a promise when its operation works outside the database (a backup). */
  const answer = (link: Link, name: string, payload: Buffer): Promise<void> | undefined => {
    let response: string | Promise<string>;
    try {
      response = requests.process(name, payload, link.maximumPacketSize);
    } catch (err) {
      notProcessed(name, err);
      return undefined;
    }
    if (typeof response === "string") {
      send(link, name, response);
      return undefined;
    }
    return response.then(
      (text) => send(link, name, text),
      (err: unknown) => notProcessed(name, err),
    );
  };
  // While a slow request is answered, the ones after it wait their turn: requests stay in arrival order.
  let busy: Promise<void> | undefined;
  return {
    async onUp(link) {
      // state/station (with lastNotificationSeq) first, then the backlog resumes at once; the requests'
      // retained states follow alongside (docs/mqtt.md#backoff-and-reconnects)
      await retained.attach(link, () => publisher.attach(link));
    },
    onDown(link) {
      publisher.detach(link);
      retained.detach(link);
    },
    // a return to an earlier node (docs/mqtt.md#a-clustered-broker): the rows in flight are acknowledged
    // on this connection rather than sent again on the next
    onLeaving: () => publisher.settle(SETTLE_MS),
    onMessage(link, topic, payload) {
      const name = topics.requestName(topic);
      if (name === undefined) return;
      const next = busy ? busy.then(() => answer(link, name, payload)) : answer(link, name, payload);
      if (!next) return;
      const mine: Promise<void> = next.finally(() => {
        if (busy === mine) busy = undefined;
      });
      busy = mine;
    },
    onReconnectScheduled(delayMs) {
      counters.reconnects.inc();
      log.debug({ delayMs }, "mqtt: reconnecting");
    },
  };
}

/** New notifications wake the publisher; station and request changes republish their retained state. */
export function listenToBus(bus: EventBus, parts: Pick<SyncParts, "publisher" | "retained">): void {
  const { publisher, retained } = parts;
  bus.on(OWNER, "outbox", () => {
    publisher.wake();
    retained.notificationsProduced();
  });
  bus.on(OWNER, "station", () => retained.stationChanged());
  bus.on(OWNER, "request", (e) =>
    retained.requestChanged({ type: e.type, externalServiceRequestId: e.externalServiceRequestId }),
  );
}

export function createSync(deps: SyncDeps) {
  const cfg = deps.config.mqtt;
  const log = deps.log.child({ part: "mqtt" });
  const topics = topicsFor(deps.config.site, deps.config.ppsId);
  const repo = createMqttRepo(deps.sqlite);
  let broker: EmbeddedBroker | undefined;
  let connection: Connection | undefined;
  let url: string | undefined;
  /** Why the sync could not start, for /readyz. */
  let failure: string | undefined;
  const connected = () => connection?.status().connected ?? false;
  /** The link was started (not `mqtt.url: off`), so the operator screen may speak of it. */
  let linked = false;
  const parts = createSyncParts(deps, { topics, repo, log, connected });
  const { monitor, publisher } = parts;

  return {
    topics,
    repo,
    /** The broker URL in use (the embedded broker's, once started). */
    get url(): string | undefined {
      return url;
    },
    /** The embedded broker's `mqtts://` port, when it has a TLS listener. */
    get tlsPort(): number | undefined {
      return broker?.tlsPort;
    },
    async start(): Promise<void> {
      failure = undefined;
      monitor.start();
      if (cfg.url === "off") {
        log.info("mqtt: off; notifications stay readable at GET /station/notifications");
        return;
      }
      const endpoint = await brokerEndpoint(
        deps.config,
        {
          root: topics.root,
          verifyUser: deps.verifyBrokerUser,
          onRefused: deps.brokerRefused,
          refusals: deps.metrics.refusals(),
          ...(deps.brokerAccess ? { access: deps.brokerAccess } : {}),
        },
        log,
      );
      if ("failure" in endpoint) {
        failure = endpoint.failure;
        return;
      }
      if (endpoint.broker) broker = endpoint.broker;
      url = endpoint.url;
      const files = readTls(cfg, log);
      if ("failure" in files) {
        failure = files.failure;
        return;
      }
      // Loaded only when MQTT is on: the client and the broker are the largest modules of the agent.
      const { createConnection } = await import("./connection.js");
      connection = createConnection(
        connectionOptions(deps.config, endpoint, files.tls, { topics, repo, now: deps.now, log }),
        connectionHandlers(parts, topics, log),
      );
      listenToBus(deps.bus, parts);
      connection.start();
      linked = true;
      log.info({ url: redact(url), root: topics.root }, "mqtt: sync started");
    },
    async stop(): Promise<void> {
      linked = false;
      deps.bus.off(OWNER);
      monitor.stop();
      await publisher.settle(SETTLE_MS);
      await connection?.stop();
      connection = undefined;
      await broker?.stop();
      broker = undefined;
    },
    /** For /readyz: the outbox is judged by depth and age; the link itself never makes the agent unready. */
    readiness: () =>
      readinessChecks(monitor, () =>
        cfg.url === "off"
          ? { off: true }
          : { failure, url: connection?.status().url ?? url ?? cfg.url, status: connection?.status() },
      ),
    /**
     * The link to central as the operator screen says it (docs/station.md#operator-screen "Notices"):
     * connected or not, and the notifications waiting against `outbox.maxUndelivered` and their bytes
     * against `outbox.maxUndeliveredBytes`; null while no broker link runs.
     */
    link: (): CentralLinkView | null =>
      linked
        ? {
            connected: connected(),
            undelivered: deps.unitOfWork.undelivered(),
            limit: deps.config.outbox.maxUndelivered,
            undeliveredBytes: deps.unitOfWork.undeliveredBytes(),
            limitBytes: deps.config.outbox.maxUndeliveredBytes,
          }
        : null,
    /** The publisher's side of a dead-letter replay (services/notifications/dead-letters.service.ts). */
    redelivery: { record: () => publisher.record(), rewind: () => publisher.rewind() },
    /** `url`: the node of the current or last attempt (docs/mqtt.md#a-clustered-broker). */
    status: () => ({
      ...(connection?.status() ?? { url, connected: false }),
      inFlight: publisher.inFlight(),
    }),
  };
}

export type Sync = ReturnType<typeof createSync>;
