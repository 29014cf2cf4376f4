import { mkdirSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { type ServerType, serve } from "@hono/node-server";
import type { Hono } from "hono";
import { type Config, DEFAULT_BINS, DEFAULT_SEATS } from "./config/config.schema.js";
import { type DatabaseHandle, isMigrated, openDatabase, shippedMigrationCount } from "./db/open.js";
import { createDeviceHub, type StationDeviceHub } from "./devices/device-hub.js";
import { cupsPrinter, filePrinter } from "./devices/drivers/label-printer/label-printer.js";
import { loadStation } from "./devices/station-file.js";
import { createHttpApp } from "./http/app.js";
import { requireBearer } from "./http/auth.middleware.js";
import type { AppEnv } from "./http/context.js";
import { auditsRoutes } from "./http/routes/audits.routes.js";
import { authRoutes } from "./http/routes/auth.routes.js";
import { integrationRoutes } from "./http/routes/integration.routes.js";
import { masterdataRoutes } from "./http/routes/masterdata.routes.js";
import { notificationsRoutes } from "./http/routes/notifications.routes.js";
import { opsRoutes } from "./http/routes/ops.routes.js";
import { reportsRoutes } from "./http/routes/reports.routes.js";
import { requestsRoutes } from "./http/routes/requests.routes.js";
import { stationRoutes } from "./http/routes/station.routes.js";
import { MEDIA_4X6, MEDIA_A6 } from "./labels/media.js";
import { createLogger, type Logger } from "./log.js";
import { Metrics } from "./metrics.js";
import { createPackLabels } from "./pack-labels.part.js";
import { createScreenPart, type ScreenPart } from "./screen.part.js";
import { ensureCredentials } from "./services/auth/auth.service.js";
import { createServices, type Services } from "./services/container.js";
import { stationSeatsAndBins } from "./station/topology.js";
import { createWorkScheduler } from "./station/work-scheduler.js";
import { createStationPart, type StationPart } from "./station.part.js";
import { requestOperations } from "./sync/request-operations.js";
import { requestSnapshots, stationSnapshot } from "./sync/snapshots.js";
import { createSync, type Sync } from "./sync/sync.js";
import { VERSION } from "./version.js";

export interface AgentOptions {
  log?: Logger;
  /** Injected clock (epoch ms); tests move time forward to expire tokens. */
  now?: () => number;
}

export const DB_FILE = "pps-edge.db";

/**
 * The composition root: config → dependencies → start/stop in order. Constructing an agent does
 * nothing; `start()` opens the database, makes credentials and listens; `stop()` undoes it.
 */
export function createAgent(config: Config, opts: AgentOptions = {}) {
  const log = opts.log ?? createLogger(config.log.level, config);
  const now = opts.now ?? Date.now;
  const dataDir = resolve(config.dataDir);
  let handle: DatabaseHandle | undefined;
  let server: ServerType | undefined;
  let app: Hono<AppEnv> | undefined;
  let pruneTimer: NodeJS.Timeout | undefined;
  let services: Services | undefined;
  let devices: StationDeviceHub | undefined;
  let stationPart: StationPart | undefined;
  let screenPart: ScreenPart | undefined;
  let sync: Sync | undefined;
  let scheduler: ReturnType<typeof createWorkScheduler> | undefined;
  let labels: ReturnType<typeof createPackLabels> | undefined;
  const metrics = new Metrics();

  return {
    get app(): Hono<AppEnv> {
      if (!app) throw new Error("agent not started");
      return app;
    },
    /** The use cases, for the CLI, benchmarks and tests that seed data without HTTP. */
    get services(): Services {
      if (!services) throw new Error("agent not started");
      return services;
    },
    get db(): DatabaseHandle {
      if (!handle) throw new Error("agent not started");
      return handle;
    },
    /** The device hub (scanners, lights, sensors and their health; `simulator()` for simulated ones). */
    get devices(): StationDeviceHub {
      if (!devices) throw new Error("agent not started");
      return devices;
    },
    /** The operator screen (its publisher and sessions), once started. */
    get screen(): ScreenPart {
      if (!screenPart) throw new Error("agent not started");
      return screenPart;
    },
    /** The MQTT sync (its broker URL and connection state), once started. */
    get sync(): Sync {
      if (!sync) throw new Error("agent not started");
      return sync;
    },
    metrics,
    log,
    /** The address the HTTP server listens on, once started. */
    address: undefined as AddressInfo | undefined,

    async start(listen = true): Promise<void> {
      const started = performance.now();
      // The profiles and the station file first: a bad one stops the start before anything is opened.
      const station = await loadStation({
        file: config.station.file,
        profilesDir: config.devices.profilesDir,
        seats: config.station.seats,
        bins: config.station.bins,
      });
      const layout = stationSeatsAndBins(config, station, { seats: DEFAULT_SEATS, bins: DEFAULT_BINS });
      mkdirSync(dataDir, { recursive: true, mode: 0o750 });
      handle = openDatabase(join(dataDir, DB_FILE), {
        synchronous: config.db.synchronous,
        busyTimeoutMs: config.db.busyTimeoutMs,
      });
      const { sqlite } = handle;
      const expectedMigrations = shippedMigrationCount();

      let announce = () => {};
      const hub = createDeviceHub({ station, metrics, log, now, onHealthChange: () => announce() });
      devices = hub;
      metrics.histogram("db_commit_duration_seconds", "Time to commit a transaction durably (WAL sync)");
      const svc = createServices({
        handle,
        config: { ...config, station: { ...config.station, ...layout } },
        log,
        now,
        devices: () => hub.health(),
        onCommit: (t) => metrics.observe("db_commit_duration_seconds", {}, t.commitSeconds),
      });
      // a device coming or going changes state/station and /station/state
      announce = () => svc.bus.emit("station", {});
      svc.init();
      await ensureCredentials(svc.auth, config, dataDir, log);
      services = svc;
      // Devices start connecting now; an absent one is reported and retried, never fatal (DESIGN.md §3).
      try {
        await hub.start();
      } catch (err) {
        log.error({ err, part: "devices" }, "could not start");
      }
      const { auth, catalog, items } = svc;

      // MQTT sync (DESIGN.md §5): built now for its readiness checks, started once HTTP listens.
      const mqttSync = createSync({
        config,
        sqlite,
        outbox: svc.repos.outbox,
        bus: svc.bus,
        unitOfWork: svc.unitOfWork,
        operations: requestOperations(svc),
        stationSnapshot: stationSnapshot(svc, config.site, now),
        requests: requestSnapshots(svc, sqlite),
        metrics,
        log,
        now,
      });
      sync = mqttSync;

      // the station engine: device events and scans → station operations → lights (DESIGN.md §2)
      const stationEngine = createStationPart({ hub, services: svc, config, now, log });
      stationPart = stationEngine;
      // the operator screen: each seat's state pushed to its page, taps through the engine
      const screen = createScreenPart({
        station: stationEngine,
        hub,
        services: svc,
        sqlite,
        config,
        dataDir,
        labels: () => labels,
        now,
        log,
      });
      screenPart = screen;

      const built = createHttpApp(
        { log, metrics, bodyLimitBytes: config.http.bodyLimitBytes, guard: requireBearer(auth) },
        [
          opsRoutes({
            metrics,
            version: VERSION,
            checks: [
              {
                name: "database",
                check: () =>
                  isMigrated(sqlite, expectedMigrations)
                    ? { ok: true }
                    : { ok: false, detail: "database not open or not migrated" },
              },
              ...mqttSync.readiness(),
            ],
          }),
          authRoutes(auth),
          masterdataRoutes(catalog, items),
          notificationsRoutes(svc.notifications),
          requestsRoutes(svc.requests),
          integrationRoutes(svc.operations),
          stationRoutes(svc.operations, () => svc.station.state(now(), config.site)),
          auditsRoutes(svc.audits, now),
          reportsRoutes(svc.reports),
          stationEngine.routes,
          ...screen.routes,
        ],
      );
      app = built.app;

      scheduler = createWorkScheduler({
        bus: svc.bus,
        release: () => svc.operations.releaseHeldWork(),
        nextHeld: () => svc.workOrder.nextHeldRelease(now()),
        now,
        log,
      });
      const staging = { start: () => svc.operations.kickStaging() };
      const { printing } = config;
      labels =
        printing.mode === "station"
          ? createPackLabels({
              bus: svc.bus,
              printer:
                printing.printer === "cups"
                  ? cupsPrinter({
                      queue: printing.cupsQueue as string,
                      media: printing.media === "a6" ? "iso_a6_105x148mm" : "na_index-4x6_4x6in",
                    })
                  : filePrinter(printing.dir ?? join(dataDir, "labels")),
              media: printing.media === "a6" ? MEDIA_A6 : MEDIA_4X6,
              labelData: (id, at) => svc.picks.labelData(id, at),
              printed: (id) => svc.operations.printReady(id),
              now,
              log,
              onResult: screen.printed,
            })
          : undefined;
      // each part on its own: one that fails to start is logged and the others keep running
      for (const [name, part] of [
        ["audit conflicts", svc.auditConflicts],
        ["reports", svc.reports],
        ["work scheduler", scheduler],
        ["staging", staging],
        ["pack labels", labels ?? { start: () => {} }],
        ["station engine", stationEngine],
        ["operator screen", screen],
      ] as const) {
        try {
          part.start();
        } catch (err) {
          log.error({ err, part: name }, "could not start");
        }
      }

      pruneTimer = setInterval(() => auth.pruneExpired(), 10 * 60_000);
      pruneTimer.unref();

      if (listen) {
        const httpApp = app;
        await new Promise<void>((ok, fail) => {
          const s = serve(
            { fetch: httpApp.fetch, hostname: config.http.host, port: config.http.port },
            (info) => {
              this.address = info;
              ok();
            },
          );
          s.once("error", fail);
          server = s;
        });
        // `start(false)` opens no network server and no connection: no HTTP, no MQTT (in-process tests).
        await mqttSync.start();
      }
      log.info(
        { address: this.address, dataDir, ms: Math.round(performance.now() - started) },
        "pps-edge ready",
      );
    },

    async stop(): Promise<void> {
      if (pruneTimer) clearInterval(pruneTimer);
      const s = server;
      server = undefined;
      if (s) {
        await new Promise<void>((ok) => {
          s.close(() => ok());
          if ("closeAllConnections" in s) (s as { closeAllConnections(): void }).closeAllConnections();
        });
      }
      scheduler?.stop();
      scheduler = undefined;
      screenPart?.stop();
      screenPart = undefined;
      stationPart?.stop();
      stationPart = undefined;
      await labels?.stop();
      labels = undefined;
      services?.operations.stop();
      services?.auditConflicts.stop();
      await services?.reports.stop();
      // After HTTP (no new changes), before the database closes: the last PUBACKs are recorded, then OFFLINE.
      await sync?.stop();
      sync = undefined;
      await devices?.stop();
      devices = undefined;
      handle?.close();
      handle = undefined;
      log.info("pps-edge stopped");
    },
  };
}

export type Agent = ReturnType<typeof createAgent>;
