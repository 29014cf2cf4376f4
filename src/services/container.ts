import { hostname } from "node:os";
import { resolve } from "node:path";
import type { Logger } from "pino";
import type { Config } from "../config/config.schema.js";
import { createAuditsRepo } from "../db/audits.repo.js";
import { createAuthRepo } from "../db/auth.repo.js";
import { createCatalogRepo } from "../db/catalog.repo.js";
import { createItemsRepo } from "../db/items.repo.js";
import type { DatabaseHandle } from "../db/open.js";
import { createOutboxRepo } from "../db/outbox.repo.js";
import { createReportsRepo } from "../db/reports.repo.js";
import { createRequestsRepo } from "../db/requests.repo.js";
import { createStationRepo } from "../db/station.repo.js";
import { createStockRepo } from "../db/stock.repo.js";
import type { DeviceHealth } from "../devices/hub.types.js";
import { EventBus } from "../events.js";
import { createAuditConflictWatcher } from "./audit-conflicts.js";
import { createAuditsService } from "./audits.service.js";
import { createAuthService } from "./auth.service.js";
import { createBinsService } from "./bins.service.js";
import { createCatalogService } from "./catalog.service.js";
import { createItemsService } from "./items.service.js";
import { createOperations } from "./operations.js";
import { createPickingService } from "./picking.service.js";
import { createPicksService } from "./picks.service.js";
import { createPutsService } from "./puts.service.js";
import { createReportsService, publicBaseUrl } from "./reports.service.js";
import { createRequestsService } from "./requests.service.js";
import { createStationService } from "./station.service.js";
import { type CommitTiming, createUnitOfWork } from "./unit-of-work.js";

export interface ServiceDeps {
  handle: DatabaseHandle;
  config: Config;
  log: Logger;
  now: () => number;
  /** Health of the station's devices, from the device hub (none when the agent runs without one). */
  devices?: () => DeviceHealth[];
  /** Each commit's timing (metrics). */
  onCommit?: (timing: CommitTiming) => void;
}

/**
 * Builds every repository and use case over one open database. Pure construction: nothing is read or
 * written here except the station's configured seats and bins, which `init` ensures.
 */
export function createServices({ handle, config, log, now, devices = () => [], onCommit }: ServiceDeps) {
  const { db, sqlite } = handle;
  const bus = new EventBus();
  const repos = {
    auth: createAuthRepo(db),
    catalog: createCatalogRepo(db),
    items: createItemsRepo(sqlite),
    outbox: createOutboxRepo(sqlite, { site: config.site, ppsId: config.ppsId }),
    stock: createStockRepo(sqlite),
    station: createStationRepo(sqlite),
    audits: createAuditsRepo(sqlite),
    reports: createReportsRepo(sqlite),
    requests: createRequestsRepo(sqlite),
  };
  const tx = createUnitOfWork({
    sqlite,
    outbox: repos.outbox,
    bus,
    now,
    log,
    outboxLimit: config.outbox.maxUndelivered,
    onCommit,
  });
  const auth = createAuthService(repos.auth, {
    clientId: config.clientId,
    tokenTtlSeconds: config.tokenTtlSeconds,
    refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
    now,
  });
  const catalog = createCatalogService(repos.catalog, tx);
  const items = createItemsService(repos.items, repos.catalog, tx);
  const audits = createAuditsService({
    repo: repos.audits,
    station: repos.station,
    tx,
    log,
    ppsId: config.ppsId,
    seats: config.station.seats,
  });
  const ctx = { requests: repos.requests, items: repos.items, station: repos.station, ppsId: config.ppsId };
  const bins = createBinsService(ctx, repos.stock);
  const picks = createPicksService(ctx, repos.stock, bins, config.timeZone);
  const picking = createPickingService(ctx, repos.stock, bins);
  const puts = createPutsService(ctx, repos.stock, config.station.stagingWithLogout);
  const station = createStationService(ctx, repos.station, repos.stock, bins, devices);
  const requests = createRequestsService(ctx, tx, picks, puts);
  const auditRunning = sqlite.prepare("SELECT 1 AS one FROM audits WHERE status = 'started' LIMIT 1");
  const operations = createOperations({
    ctx,
    runner: tx,
    picking,
    puts,
    bins,
    station,
    log,
    auditBusy: () => auditRunning.get() !== undefined,
  });
  /** Lifecycle parts: the agent starts them after the HTTP app is built and stops them first. */
  const auditConflicts = createAuditConflictWatcher({ bus, audits, log });
  const reports = createReportsService({
    repo: repos.reports,
    tx,
    log,
    dir: resolve(config.dataDir, "reports"),
    baseUrl: () => publicBaseUrl(config.http, hostname()),
  });

  return {
    bus,
    repos,
    unitOfWork: tx,
    auth,
    catalog,
    items,
    audits,
    auditConflicts,
    reports,
    requests,
    puts,
    bins,
    station,
    operations,
    /** Health of the station's devices (state/station, /station/state). */
    deviceHealth: devices,
    /** Ensures the configured seats and bins exist; the mode is set only on a new database. */
    init(): void {
      tx.run((t) =>
        repos.station.init(config.station.seats, config.station.bins, config.station.initialMode, t.now),
      );
    },
  };
}

export type Services = ReturnType<typeof createServices>;
