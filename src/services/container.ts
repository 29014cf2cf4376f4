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
import { createScanRepo } from "../db/scan.repo.js";
import { createStationRepo } from "../db/station.repo.js";
import { createStockRepo } from "../db/stock.repo.js";
import { ppsIdNumber } from "../domain/audit.view.js";
import { EventBus } from "../events.js";
import { createAuditConflictWatcher, createAuditsService } from "./audit/audit.service.js";
import { createAuthService } from "./auth/auth.service.js";
import { createCatalogService, createItemsService } from "./catalog/catalog.service.js";
import { createNotificationsService } from "./notifications/notifications.service.js";
import { createOperations } from "./operations/operations.service.js";
import { labelData } from "./pick/pick.service.js";
import { createReportsService, publicBaseUrl } from "./report/report.service.js";
import { createRequestsService } from "./requests/requests.service.js";
import { createScanLookup } from "./scan-lookup/scan-lookup.service.js";
import { stationState } from "./station/station.service.js";
import { type CommitTiming, createUnitOfWork } from "./unit-of-work.js";

export interface ServiceDeps {
  handle: DatabaseHandle;
  config: Config;
  log: Logger;
  now: () => number;
  /** Health of the station's devices, from the device hub (none when the agent runs without one). */
  devices?: () => readonly unknown[];
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
  const unitOfWork = createUnitOfWork({
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
  const catalogDeps = { catalog: repos.catalog, items: repos.items };
  const catalog = createCatalogService(catalogDeps, unitOfWork);
  const items = createItemsService(catalogDeps, unitOfWork);
  const audits = createAuditsService(
    {
      repo: repos.audits,
      station: repos.station,
      log,
      ppsId: ppsIdNumber(config.ppsId),
      seats: config.station.seats,
    },
    unitOfWork,
  );
  /** What the pick, put and station use cases work on. */
  const deps = {
    requests: repos.requests,
    items: repos.items,
    station: repos.station,
    stock: repos.stock,
    ppsId: config.ppsId,
    timeZone: config.timeZone,
    stagingWithLogout: config.station.stagingWithLogout,
    auditRunning: () => repos.audits.withStatus("started").length > 0,
    devices,
  };
  const requests = createRequestsService(deps, unitOfWork);
  const operations = createOperations({ deps, unitOfWork, log });
  /** Lifecycle parts: the agent starts them after the HTTP app is built and stops them first. */
  const auditConflicts = createAuditConflictWatcher({ bus, resolveConflicts: audits.resolveConflicts, log });
  const reports = createReportsService(
    {
      repo: repos.reports,
      log,
      dir: resolve(config.dataDir, "reports"),
      baseUrl: () => publicBaseUrl(config.http, hostname()),
    },
    unitOfWork,
  );

  return {
    bus,
    repos,
    unitOfWork,
    auth,
    catalog,
    items,
    audits,
    auditConflicts,
    reports,
    requests,
    operations,
    notifications: createNotificationsService(repos.outbox),
    scanLookup: createScanLookup({ scan: createScanRepo(sqlite), station: repos.station }),
    station: { state: (at: number, site: string) => stationState(deps, at, site) },
    picks: { labelData: (id: string, printedAt: string) => labelData(deps, id, printedAt) },
    /** Ensures the configured seats and bins exist; the mode is set only on a new database. */
    init(): void {
      unitOfWork.run((t) =>
        repos.station.init(config.station.seats, config.station.bins, config.station.initialMode, t.now),
      );
    },
  };
}

export type Services = ReturnType<typeof createServices>;
