/**
 * The parts of the MQTT sync that live as long as the agent, whether or not a connection is up: the
 * outbox monitor, the publisher, retained state and the request handler, with the sync's metrics.
 */
import type { Logger } from "pino";
import type { MqttRepo } from "../db/mqtt.repo.js";
import type { Sqlite } from "../db/open.js";
import type { OutboxRepo } from "../db/outbox.repo.js";
import type { EventBus } from "../events.js";
import type { Metrics } from "../metrics.js";
import type { UnitOfWork } from "../services/unit-of-work/unit-of-work.js";
import type { BrokerAccess, BrokerGuardOptions, VerifyUser } from "./broker-guard.js";
import { registerMetrics } from "./health.js";
import { createOutboxMonitor } from "./outbox-monitor.js";
import { createPublisher } from "./publisher.js";
import { createRequestHandler, type RequestOperations } from "./requests.js";
import { createRetainedState, type RetainedStateDeps } from "./retained-state.js";
import type { SyncConfig } from "./sync-config.js";
import type { Topics } from "./topics.js";

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
    now: deps.now,
    log,
    onHandled: (name, outcome) => counters.requests.inc({ name, outcome }),
  });
  return { monitor, publisher, retained, requests, counters };
}

export type SyncParts = ReturnType<typeof createSyncParts>;
