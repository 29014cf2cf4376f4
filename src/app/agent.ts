/**
 * The composition root (docs/architecture.md#the-composition-root): config → the foundation (station
 * file, database, devices, services) → the parts, built in dependency order, started in that order and
 * stopped in reverse (lifecycle.ts). The MQTT sync starts before the HTTP server so it stops after it:
 * once no HTTP change can arrive, the last acknowledgements are recorded and the station says OFFLINE.
 * `start(false)` leaves out both network parts (in-process tests) and the readiness and watchdog
 * messages to systemd (systemd.part.ts), which only a listening agent sends. Constructing an agent does
 * nothing; `start()` opens and starts; `stop()` undoes it.
 */
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import type { Hono } from "hono";
import type { Config } from "../config/config.schema.js";
import type { DatabaseHandle } from "../db/open.js";
import type { StationDeviceHub } from "../devices/device-hub.js";
import type { AppEnv } from "../http/context.js";
import { httpServer } from "../http/server.js";
import { createStationApi } from "../http/station-api.js";
import { packLabelsFor } from "../labels/pack-labels.js";
import { createLogger, droppedLogLines, type Logger } from "../log.js";
import { Metrics } from "../metrics.js";
import type { Services } from "../services/services.js";
import { labelPrinterCheck } from "../services/status/agent-status.js";
import { trainingRoutes } from "../station/routes/training.routes.js";
import { createScreenPart, type ScreenPart } from "../station/screen/screen.part.js";
import { requestOperations } from "../sync/request-operations.js";
import { requestSnapshots, stationSnapshot } from "../sync/snapshots.js";
import { createSync, type Sync } from "../sync/sync.js";
import { guardedLookup } from "../webhook-delivery/address-guard.js";
import { createWebhookDelivery } from "../webhook-delivery/webhooks.js";
import { backgroundParts } from "./background.part.js";
import { deadLettersPart } from "./dead-letters.part.js";
import { type AgentContext, DB_FILE, type Foundation, openFoundation } from "./foundation.js";
import { type Part, startParts, stopParts } from "./lifecycle.js";
import { revocationPart } from "./revocation.part.js";
import { createStationPart, type StationPart } from "./station.part.js";
import { systemdPart } from "./systemd.part.js";
import { createTraining, type Training } from "./training.part.js";
import { webhooksPart } from "./webhooks.part.js";

export { DB_FILE };

export interface AgentOptions {
  log?: Logger;
  /** Injected clock (epoch ms); tests move time forward to expire tokens. */
  now?: () => number;
  /** Waits before a delayed failed login is answered (docs/security.md#login-policy); tests record instead. */
  sleep?: (ms: number) => Promise<void>;
}

/** The running agent's pieces, built over its foundation in the order they depend on each other. */
interface Built {
  parts: Part[];
  app: Hono<AppEnv>;
  sync: Sync;
  station: StationPart;
  screen: ScreenPart;
  training: Training;
}

function buildSync(f: Foundation): Sync {
  const { svc, config, now } = f;
  return createSync({
    config,
    sqlite: f.handle.sqlite,
    outbox: svc.repos.outbox,
    bus: svc.bus,
    unitOfWork: svc.unitOfWork,
    operations: requestOperations(svc, { dataDir: f.dataDir, now, status: f.status.status }),
    stationSnapshot: stationSnapshot(svc, config.site, now),
    requests: requestSnapshots(svc, f.handle.sqlite, {
      retainTerminalSeconds: config.mqtt.retainTerminalSeconds,
      now,
    }),
    metrics: f.metrics,
    // throttled like the token endpoint (docs/security.md#login-policy), keyed by the client's address;
    // the user's role decides what it may do (sync/broker-acl.ts)
    verifyBrokerUser: (username, password, address) => svc.auth.brokerLogin(username, password, address),
    brokerRefused: ({ username, address, reason }) =>
      svc.securityLog.refused({
        kind: "login_failed",
        channel: "mqtt",
        username,
        address,
        detail: { reason },
      }),
    brokerAccess: { onForbidden: svc.auth.access.onForbidden, track: svc.auth.track },
    log: f.log,
    now,
  });
}

/** Builds every part over the foundation, each after what it uses; nothing starts here. */
function build(f: Foundation, opts: { listen: boolean; listening: (a: AddressInfo) => void }): Built {
  const { hub, svc, config } = f;
  const sync = buildSync(f);
  // /readyz and request/health_check see the outbox and the broker link too
  f.status.add(...sync.readiness());
  // a dead-letter replay moves the delivery cursor back: the publisher reads again from it
  svc.deadLetters.useRedelivery(sync.redelivery);
  // webhooks: the same outbox to each endpoint on its own cursor; admin changes restart its loop at once
  const webhooks = createWebhookDelivery({
    config: config.webhooks,
    selfPort: config.http.port,
    repo: svc.repos.webhooks,
    outbox: svc.repos.outbox,
    bus: svc.bus,
    metrics: f.metrics,
    record: svc.securityLog.record,
    log: f.log,
    now: f.now,
  });
  f.status.add(webhooks.readiness());
  // training (docs/station.md#training): a seat in training is served by a training station of its own
  const training = createTraining({
    ctx: f,
    layout: f.layout,
    hub,
    // a seat out of training frees its bins: orders waiting for a bin get them now
    binsFreed: () => svc.operations.releaseHeldWork(),
    loggedIn: (seat) => svc.scanLookup.user(seat) !== null,
    kept: {
      seats: () => svc.repos.training.seats(),
      set: (seat, on) =>
        svc.unitOfWork.run((tx) =>
          on ? svc.repos.training.add(seat, tx.now) : svc.repos.training.remove(seat),
        ),
    },
  });
  svc.holdBins(training.heldBins);
  // the station engine: device events and scans → station operations → lights
  const station = createStationPart({
    hub,
    services: svc,
    config,
    now: f.now,
    log: f.log,
    metrics: f.metrics,
    divert: training.divert,
    holdLight: training.holdLight,
  });
  // station printing: a label per pick+pack order when its bin completes (printing.mode station)
  const labels = packLabelsFor({
    config,
    dataDir: f.dataDir,
    bus: svc.bus,
    labelData: (id, at) => svc.picks.labelData(id, at),
    printed: (id) => svc.operations.printReady(id),
    boxLabelData: (id, olpn, at) => svc.picks.boxLabelData(id, olpn, at),
    boxPrinted: (bin) => svc.operations.boxLabelled(bin),
    now: f.now,
    log: f.log,
    addressGuard: (allow) => guardedLookup(allow),
  });
  // a printer that says its state (a Zebra) is named on /readyz (docs/decisions.md#zpl-labels)
  if (labels) f.status.add(...labelPrinterCheck(labels.printerState));
  // the operator screen: each seat's state pushed to its page, taps through the engine
  const screen = createScreenPart({
    ...f,
    engine: station.engine,
    shift: station.shift,
    topology: station.topology,
    simulator: station.sim,
    lookup: station.lookup,
    store: svc.repos.screen,
    services: svc,
    hub,
    labels,
    link: () => sync.link(),
    portFor: training.portFor,
  });
  const app = createStationApi(
    { svc, config, metrics: f.metrics, log: f.log, now: f.now, checks: f.status.checks() },
    [...station.routes, ...screen.routes, trainingRoutes(training)],
  );
  const parts: Part[] = [
    // an absent device is reported and retried, never fatal (docs/architecture.md#devices-and-firmware-profiles)
    { name: "devices", start: () => hub.start(), stop: () => hub.stop() },
    ...backgroundParts(f),
    ...(labels ? [{ name: "pack labels", start: () => labels.start(), stop: () => labels.stop() }] : []),
    { name: "station engine", start: () => station.start(), stop: () => station.stop() },
    { name: "operator screen", start: () => screen.start(), stop: () => screen.stop() },
    training.part(),
    // a user removed or changed by the command line loses open streams and MQTT connections at once
    revocationPart(svc.auth, f.log),
    // a replay of dead letters asked for by the command line is carried out within a second
    deadLettersPart(svc.deadLetters, f.log),
    ...(opts.listen
      ? [
          // stopped after the HTTP server, like the sync: the last deliveries are recorded
          webhooksPart(f, webhooks),
          { name: "mqtt sync", start: () => sync.start(), stop: () => sync.stop() },
          httpServer(config.http, f.log, app, opts.listening, f.metrics),
          // last: READY=1 once everything above is up; first to stop, with STOPPING=1
          systemdPart(f, sync),
        ]
      : []),
  ];
  return { parts, app, sync, station, screen, training };
}

/** `log_lines_dropped_total`: lines the log's bounded buffer dropped (docs/operations.md#when-nobody-reads-the-log). */
function countDroppedLogLines(log: Logger, metrics: Metrics): void {
  const counter = metrics.counter(
    "log_lines_dropped_total",
    "Log lines dropped because the log output did not take them (docs/limits.md#logging)",
  );
  // a logger made elsewhere (tests, benchmarks) drops nothing of its own
  const drops = droppedLogLines(log);
  if (!drops) return;
  counter.inc(drops.dropped());
  drops.onDrop(() => counter.inc());
}

interface Running {
  foundation: Foundation;
  built: Built;
  started: Part[];
}

export function createAgent(config: Config, opts: AgentOptions = {}) {
  const log = opts.log ?? createLogger(config);
  const ctx: AgentContext = {
    config,
    log,
    now: opts.now ?? Date.now,
    metrics: new Metrics(),
    dataDir: resolve(config.dataDir),
    ...(opts.sleep ? { sleep: opts.sleep } : {}),
  };
  countDroppedLogLines(log, ctx.metrics);
  let running: Running | undefined;
  const mustRun = (): Running => {
    if (!running) throw new Error("agent not started");
    return running;
  };

  return {
    get app(): Hono<AppEnv> {
      return mustRun().built.app;
    },
    /** The use cases, for the CLI, benchmarks and tests that seed data without HTTP. */
    get services(): Services {
      return mustRun().foundation.svc;
    },
    get db(): DatabaseHandle {
      return mustRun().foundation.handle;
    },
    /** The device hub (scanners, lights, sensors and their health; `simulator()` for simulated ones). */
    get devices(): StationDeviceHub {
      return mustRun().foundation.hub;
    },
    /** The MQTT sync (its broker URL and connection state), once started. */
    get sync(): Sync {
      return mustRun().built.sync;
    },
    /** The operator screen (its publisher and sessions), once started. */
    get screen(): ScreenPart {
      return mustRun().built.screen;
    },
    /** Training (docs/station.md#training): the seats in training and the training station. */
    get training(): Training {
      return mustRun().built.training;
    },
    metrics: ctx.metrics,
    log,
    /** The address the HTTP server listens on, once started. */
    address: undefined as AddressInfo | undefined,

    /** `start(false)` opens no network server and no connection: no HTTP, no MQTT (in-process tests). */
    async start(listen = true): Promise<void> {
      const t0 = performance.now();
      const foundation = await openFoundation(ctx);
      const built = build(foundation, {
        listen,
        listening: (a) => {
          this.address = a;
          foundation.svc.reports.listeningOn(a.port);
        },
      });
      try {
        running = { foundation, built, started: await startParts(built.parts, log) };
      } catch (err) {
        foundation.close();
        throw err;
      }
      log.info(
        { address: this.address, dataDir: ctx.dataDir, ms: Math.round(performance.now() - t0) },
        "pps-edge ready",
      );
    },

    async stop(): Promise<void> {
      const r = running;
      running = undefined;
      if (!r) return;
      await stopParts(r.started, log);
      r.foundation.close();
      log.info("pps-edge stopped");
    },
  };
}

export type Agent = ReturnType<typeof createAgent>;
