/**
 * What every part stands on (docs/architecture.md#the-composition-root): the station file and its
 * profiles, the database, the device hub and the services over them. Opened before any part starts
 * and closed after the last one stopped. A bad station file stops the start before anything is
 * opened; a failure after the database opened closes it again. One agent per data folder: the
 * folder's lock is taken before the database opens and given up after it closed (db/agent-lock.ts).
 */
import { join } from "node:path";
import type { Logger } from "pino";
import { type Config, DEFAULT_BINS, DEFAULT_SEATS } from "../config/config.schema.js";
import { removeBackupLeftovers } from "../db/backup.js";
import { type DatabaseHandle, DB_FILE } from "../db/open.js";
import { createDeviceHub, type StationDeviceHub } from "../devices/device-hub.js";
import { EventBus } from "../events.js";
import type { Metrics } from "../metrics.js";
import { ensureCredentials } from "../services/auth/auth.service.js";
import { createServices, type Services } from "../services/services.js";
import {
  type AgentStatus,
  createAgentStatus,
  databaseCheck,
  devicesCheck,
  durabilityCheck,
  powerLossWarning,
  storageBudgetCheck,
  storageCheck,
} from "../services/status/agent-status.js";
import { stationSeatsAndBins } from "../station/topology.js";
import { VERSION } from "../version.js";
import { holdDataFolder, loadStationOrExplain, openDatabaseOrExplain } from "./start-failures.js";

export { DB_FILE };

/** What the composition root hands every part. */
export interface AgentContext {
  config: Config;
  log: Logger;
  now: () => number;
  metrics: Metrics;
  /** The data folder, resolved. */
  dataDir: string;
  /** Waits before a delayed failed login is answered; a timer unless a test passes its own. */
  sleep?: (ms: number) => Promise<void>;
}

export interface Foundation extends AgentContext {
  handle: DatabaseHandle;
  hub: StationDeviceHub;
  svc: Services;
  /** Readiness and status; the parts built later add their checks (services/status/agent-status.ts). */
  status: AgentStatus;
  /** The station's seats and bins (the station file's, else the config's). */
  layout: { seats: string[]; bins: string[] };
  /** Closes the database and gives the data folder up to the next agent. */
  close(): void;
}

function openServices(
  ctx: AgentContext,
  handle: DatabaseHandle,
  hub: StationDeviceHub,
  bus: EventBus,
  layout: object,
) {
  const { config, metrics } = ctx;
  const commits = metrics.histogram(
    "db_commit_duration_seconds",
    "Time to commit a transaction durably (WAL sync)",
  );
  const svc = createServices({
    handle,
    config: { ...config, station: { ...config.station, ...layout } },
    log: ctx.log,
    now: ctx.now,
    devices: () => hub.health(),
    bus,
    onCommit: (t) => commits.observe(t.commitSeconds),
    metrics,
    ...(ctx.sleep ? { sleep: ctx.sleep } : {}),
  });
  svc.init();
  return svc;
}

/** `credentials: false`: no API client or admin is made (the training station has no API: docs/station.md#training). */
export async function openFoundation(
  ctx: AgentContext,
  opts: { credentials?: boolean } = {},
): Promise<Foundation> {
  const { config, log, now, metrics, dataDir } = ctx;
  const station = await loadStationOrExplain(config);
  const layout = stationSeatsAndBins(config, station, { seats: DEFAULT_SEATS, bins: DEFAULT_BINS });
  const lock = holdDataFolder(dataDir, now);
  // an interrupted backup's copy and side files (docs/operations.md#what-survives-a-power-cut)
  const leftovers = removeBackupLeftovers(dataDir);
  if (leftovers.length > 0) log.warn({ removed: leftovers }, "removed what an interrupted backup left");
  let handle: DatabaseHandle | undefined;
  const close = () => {
    handle?.close();
    lock.release();
  };
  try {
    handle = openDatabaseOrExplain(join(dataDir, DB_FILE), {
      synchronous: config.db.synchronous,
      busyTimeoutMs: config.db.busyTimeoutMs,
    });
    const bus = new EventBus();
    // a device coming or going changes state/station and /station/state
    const hub = createDeviceHub({
      station,
      metrics,
      log,
      now,
      onHealthChange: () => bus.emit("station", {}),
    });
    const svc = openServices(ctx, handle, hub, bus, layout);
    if (opts.credentials !== false) await ensureCredentials(svc.auth, config, dataDir, log);
    const status = createAgentStatus({
      version: VERSION,
      outbox: svc.repos.outbox,
      state: (at) => svc.station.state(at, config.site),
      now,
    });
    status.add(
      databaseCheck(handle.sqlite),
      storageCheck(svc.storage),
      ...(svc.budget ? [storageBudgetCheck(svc.budget)] : []),
      devicesCheck(() => hub.health()),
      ...durabilityCheck(config.db),
    );
    if (!config.db.powerSafe) log.warn(powerLossWarning(config.db.synchronous));
    return { ...ctx, handle, hub, svc, status, layout, close };
  } catch (err) {
    close();
    throw err;
  }
}
