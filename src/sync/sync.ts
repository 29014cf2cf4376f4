/**
 * The MQTT sync (docs/mqtt.md; docs/architecture.md#mqtt): the outbox relay, retained state and requests
 * from central over one connection per station, and the embedded broker when `mqtt.url` is `embedded`.
 * Construction does nothing; `start()` never waits for the broker (the station works offline), `stop()`
 * says OFFLINE. The parts are built in sync-parts.ts, wired to the connection and the bus in
 * sync-handlers.ts; where to connect is broker-endpoint.ts.
 */
import { createMqttRepo } from "../db/mqtt.repo.js";
import { brokerEndpoint, connectionOptions, readTls } from "./broker-endpoint.js";
import type { Connection } from "./connection.js";
import type { EmbeddedBroker } from "./embedded-broker.js";
import { readinessChecks } from "./health.js";
import { redact } from "./redact.js";
import { connectionHandlers, listenToBus, OWNER } from "./sync-handlers.js";
import { createSyncParts, type SyncDeps } from "./sync-parts.js";
import { topicsFor } from "./topics.js";

export type { SyncDeps } from "./sync-parts.js";

/** A clean stop waits this long for the last PUBACKs before it says OFFLINE. */
const SETTLE_MS = 2000;

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
    /** The publisher's side of a dead-letter replay (services/notifications/dead-letters.service.ts). */
    redelivery: { record: () => publisher.record(), rewind: () => publisher.rewind() },
    status: () => ({
      url,
      ...(connection?.status() ?? { connected: false }),
      inFlight: publisher.inFlight(),
    }),
  };
}

export type Sync = ReturnType<typeof createSync>;
