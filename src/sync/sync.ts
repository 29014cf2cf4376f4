import { readFileSync } from "node:fs";
import type { Logger } from "pino";
import { createMqttRepo } from "../db/mqtt.repo.js";
import type { Sqlite } from "../db/open.js";
import type { OutboxRepo } from "../db/outbox.repo.js";
import type { EventBus } from "../events.js";
import type { Metrics } from "../metrics.js";
import type { UnitOfWork } from "../services/unit-of-work.js";
import type { Connection } from "./connection.js";
import type { EmbeddedBroker } from "./embedded-broker.js";
import { readinessChecks, registerMetrics } from "./health.js";
import { createOutboxMonitor } from "./outbox-monitor.js";
import { createPublisher } from "./publisher.js";
import { redact } from "./redact.js";
import { createRequestHandler, type RequestOperations } from "./requests.js";
import { createRetainedState, type RetainedStateDeps } from "./retained-state.js";
import type { SyncConfig } from "./sync-config.js";
import { topicsFor } from "./topics.js";

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
  log: Logger;
  now(): number;
}

const OWNER = "sync";
/** A clean stop waits this long for the last PUBACKs before it says OFFLINE. */
const SETTLE_MS = 2000;
const STATION_REFRESH_MS = 30_000;

/**
 * The MQTT sync (DESIGN.md §5 "MQTT"): the outbox relay, retained state and requests from central over
 * one connection per station, and the embedded broker when `mqtt.url` is `embedded`. Construction does
 * nothing; `start()` never waits for the broker (the station works offline), `stop()` says OFFLINE.
 */
export function createSync(deps: SyncDeps) {
  const cfg = deps.config.mqtt;
  const log = deps.log.child({ part: "mqtt" });
  const topics = topicsFor(deps.config.site, deps.config.ppsId);
  const repo = createMqttRepo(deps.sqlite);
  const { metrics } = deps;
  let broker: EmbeddedBroker | undefined;
  let connection: Connection | undefined;
  let url: string | undefined;
  /** Why the sync could not start, for /readyz. */
  let failure: string | undefined;

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
  registerMetrics(metrics, monitor, () => connection?.status().connected ?? false);

  const publisher = createPublisher({
    outbox: deps.outbox,
    unitOfWork: deps.unitOfWork,
    topic: topics.notification,
    window: cfg.inflightWindow,
    maxMessageBytes: cfg.maxMessageBytes,
    maxDeliveryAttempts: cfg.maxDeliveryAttempts,
    now: deps.now,
    log,
    onPublished: (n) => metrics.inc("mqtt_published_total", {}, n),
    onRefused: (reason) => metrics.inc("mqtt_refused_total", { reason }),
    onCaughtUp: () => deps.unitOfWork.setUndelivered(0),
  });
  const retained = createRetainedState({
    topics,
    stationSnapshot: deps.stationSnapshot,
    requests: deps.requests,
    window: cfg.inflightWindow,
    maxDirty: 10_000,
    stationRefreshMs: STATION_REFRESH_MS,
    log,
  });
  const requests = createRequestHandler({
    unitOfWork: deps.unitOfWork,
    mqtt: repo,
    operations: deps.operations,
    bodyLimitBytes: deps.config.http.bodyLimitBytes,
    now: deps.now,
    log,
    onHandled: (name, outcome) => metrics.inc("mqtt_requests_total", { name, outcome }),
  });

  const readFile = (path: string | undefined) => (path ? readFileSync(path) : undefined);

  return {
    topics,
    repo,
    /** The broker URL in use (the embedded broker's, once started). */
    get url(): string | undefined {
      return url;
    },
    async start(): Promise<void> {
      failure = undefined;
      monitor.start();
      if (cfg.url === "off") {
        log.info("mqtt: off; notifications stay readable at GET /station/notifications");
        return;
      }
      let protocolVersion = cfg.protocolVersion;
      if (cfg.url === "embedded") {
        try {
          const { startEmbeddedBroker } = await import("./embedded-broker.js");
          broker = await startEmbeddedBroker({ host: cfg.embeddedHost, port: cfg.embeddedPort, log });
        } catch (err) {
          // The station keeps working without MQTT (DESIGN.md §1); /readyz and the log say why.
          failure = `embedded broker cannot listen on ${cfg.embeddedHost}:${cfg.embeddedPort}: ${(err as Error).message}`;
          log.error(
            { err },
            `mqtt: ${failure}; set mqtt.embeddedPort, or mqtt.url to the broker already there`,
          );
          return;
        }
        url = broker.url;
        protocolVersion = 4;
      } else url = cfg.url;
      let tls: { ca?: Buffer | undefined; cert?: Buffer | undefined; key?: Buffer | undefined };
      try {
        tls = { ca: readFile(cfg.caFile), cert: readFile(cfg.certFile), key: readFile(cfg.keyFile) };
      } catch (err) {
        failure = `TLS file unreadable: ${(err as Error).message}`;
        log.error({ err }, `mqtt: ${failure}; check mqtt.caFile, mqtt.certFile and mqtt.keyFile`);
        return;
      }
      // Loaded only when MQTT is on: the client and the broker are the largest modules of the agent.
      const { createConnection } = await import("./connection.js");
      connection = createConnection(
        {
          url,
          clientId: cfg.clientId ?? `pps-edge-${deps.config.site}-${deps.config.ppsId}`,
          protocolVersion,
          keepaliveSeconds: cfg.keepaliveSeconds,
          connectTimeoutMs: cfg.connectTimeoutMs,
          reconnectMinMs: cfg.reconnectMinMs,
          reconnectMaxMs: cfg.reconnectMaxMs,
          username: cfg.username,
          password: cfg.password,
          tls,
          topics,
          subscriptions: [topics.requests],
          nextSession: repo.nextSession,
          now: deps.now,
          log,
        },
        {
          async onUp(link) {
            await retained.attach(link);
            publisher.attach(link);
          },
          onDown(link) {
            publisher.detach(link);
            retained.detach(link);
          },
          onMessage(link, topic, payload) {
            const name = topics.requestName(topic);
            if (name === undefined) return;
            let response: string;
            try {
              response = requests.process(name, payload);
            } catch (err) {
              log.error({ err, request: name }, "mqtt: request not processed");
              return;
            }
            // Not queued when the link broke meanwhile: a retry with the same transaction gets it from the inbox.
            link.publish(topics.response(name), response, false, (err) => {
              if (err) log.warn({ request: name, err: err.message }, "mqtt: response not delivered");
            });
          },
          onReconnectScheduled(delayMs) {
            metrics.inc("mqtt_reconnects_total");
            log.debug({ delayMs }, "mqtt: reconnecting");
          },
        },
      );
      deps.bus.on(OWNER, "outbox", () => publisher.wake());
      deps.bus.on(OWNER, "station", () => retained.stationChanged());
      deps.bus.on(OWNER, "request", (e) =>
        retained.requestChanged({ type: e.type, externalServiceRequestId: e.externalServiceRequestId }),
      );
      connection.start();
      log.info({ url: redact(url), root: topics.root }, "mqtt: sync started");
    },
    async stop(): Promise<void> {
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
        cfg.url === "off" ? { off: true } : { failure, url: url ?? cfg.url, status: connection?.status() },
      ),
    status: () => ({
      url,
      ...(connection?.status() ?? { connected: false }),
      inFlight: publisher.inFlight(),
    }),
  };
}

export type Sync = ReturnType<typeof createSync>;
