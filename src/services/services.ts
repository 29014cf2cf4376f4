import { hostname } from "node:os";
import { resolve } from "node:path";
import type { Logger } from "pino";
import { createAuditsRepo } from "../db/audits.repo.js";
import { createAuthRepo } from "../db/auth.repo.js";
import { createCatalogRepo } from "../db/catalog.repo.js";
import { createItemsRepo } from "../db/items.repo.js";
import type { DatabaseHandle } from "../db/open.js";
import { createOutboxRepo } from "../db/outbox.repo.js";
import { createReportsRepo } from "../db/reports.repo.js";
import { createRequestsRepo } from "../db/requests.repo.js";
import { createScanRepo } from "../db/scan.repo.js";
import { createScreenRepo } from "../db/screen.repo.js";
import { createScreenSessionsRepo } from "../db/screen-sessions.repo.js";
import { createSeatControlRepo } from "../db/seat-control.repo.js";
import { createSecurityEventsRepo } from "../db/security-events.repo.js";
import { createShiftRepo } from "../db/shift.repo.js";
import { createStationRepo } from "../db/station.repo.js";
import { createStockRepo } from "../db/stock.repo.js";
import { storageMeter } from "../db/storage-use.js";
import { createTrainingRepo } from "../db/training.repo.js";
import { createWebhooksRepo } from "../db/webhooks.repo.js";
import { ppsIdNumber } from "../domain/audit.view.js";
import { type CaptureRules, DEFAULT_CAPTURE_RULES } from "../domain/capture.js";
import { DEFAULT_PACK_MARKERS, type PackAttribute } from "../domain/pick-pack.js";
import type { StationMode } from "../domain/station.schema.js";
import type { StorageBudget } from "../domain/storage-budget.js";
import {
  DEFAULT_PICK_LIMITS,
  DEFAULT_SEARCH_LIMITS,
  type PickLimits,
  type SearchLimits,
} from "../domain/work-limits.js";
import { EventBus } from "../events.js";
import type { Metrics } from "../metrics.js";
import { createAuditConflictWatcher, createAuditsService } from "./audit/audit.service.js";
import { createAuthService, createScreenSessions, createSecurityLog } from "./auth/auth.service.js";
import { createCatalogService, createItemsService } from "./catalog/catalog.service.js";
import { createDeadLetters } from "./notifications/dead-letters.service.js";
import { createNotificationsService } from "./notifications/notifications.service.js";
import { createOperations } from "./operations/operations.service.js";
import { boxLabelData, labelData } from "./pick/pick.service.js";
import { createReportsService, publicBaseUrl } from "./report/report.service.js";
import { createRequestsService } from "./requests/requests.service.js";
import { createScanLookup, createStationWork } from "./scan-lookup/scan-lookup.service.js";
import { createSeatControl } from "./seat-control/seat-control.service.js";
import { createShiftService } from "./shift/shift.service.js";
import { stationState } from "./station/station.service.js";
import {
  type CommitTiming,
  createStorageBudget,
  createStorageHealth,
  createUnitOfWork,
  type UnitOfWork,
} from "./unit-of-work/unit-of-work.js";
import { createWebhooks } from "./webhooks/webhooks.service.js";
import { nextHeldRelease } from "./work-order/work-order.service.js";

/**
 * The settings the use cases need, named as in the agent's configuration (config.schema.ts), which the
 * composition root passes; services do not read the configuration themselves.
 */
export interface ServiceSettings {
  site: string;
  ppsId: string;
  timeZone: string;
  dataDir: string;
  clientId: string;
  tokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  http: {
    host: string;
    port: number;
    publicUrl?: string | undefined;
    tls?: { certFile?: string | undefined };
  };
  outbox: { maxUndelivered: number; maxUndeliveredBytes?: number | undefined };
  /** The storage budget (docs/operations.md#storage-budget); none when absent (tests of the services alone). */
  storage?: StorageBudget | undefined;
  station: {
    seats: string[];
    bins: string[];
    initialMode: StationMode;
    stagingWithLogout: boolean;
    /** docs/capture.md#configuration; the defaults when absent */
    capture?: CaptureRules;
    /** the productivity targets (0: none); none when absent */
    productivity?: { linesPerHour: number; unitsPerHour: number };
  };
  /** The pick+pack rule and a pick's work limits (domain/pick-pack.ts, work-limits.ts); defaults when absent. */
  pick?: PickLimits & { packAttributes: readonly PackAttribute[] };
  /** A search_v2 answer's bounds (domain/work-limits.ts); defaults when absent. */
  search?: SearchLimits;
  /** The inventory reports' retention (docs/operations.md#report-retention); all kept when absent. */
  reports?: { keep: number; maxAgeDays: number } | undefined;
  /** The security event log's retention (docs/security.md#security-event-log); defaults when absent. */
  security?: { eventRetentionDays: number; eventMaxRows: number };
  /** Who prints the shipping labels (docs/station.md#shipping-labels-pickpack); external when absent. */
  printing?: { mode: string };
  /** Which webhook URLs the config allows beyond ordinary addresses (docs/webhooks.md#safety). */
  webhooks?: { allow: { loopback: boolean; linkLocal: boolean; plainHttp: boolean } };
}

export interface ServiceDeps {
  handle: DatabaseHandle;
  config: ServiceSettings;
  log: Logger;
  now: () => number;
  /** Health of the station's devices, from the device hub (none when the agent runs without one). */
  devices?: () => readonly unknown[];
  /** Each commit's timing (metrics). */
  onCommit?: (timing: CommitTiming) => void;
  /** Where storage failure episodes are counted (/metrics); none in tests that need no registry. */
  metrics?: Metrics;
  /** Waits before a delayed failed login is answered; a timer unless a test passes its own. */
  sleep?: (ms: number) => Promise<void>;
  /** The agent's event bus, when the caller made it first (the device hub announces on it too). */
  bus?: EventBus;
}

/** No loopback, link-local or plain-HTTP webhook URLs unless the config allows them. */
const NO_ALLOWANCE = { loopback: false, linkLocal: false, plainHttp: false };

function createRepos({ db, sqlite }: DatabaseHandle, config: ServiceSettings) {
  return {
    auth: createAuthRepo(db),
    catalog: createCatalogRepo(db),
    items: createItemsRepo(sqlite),
    outbox: createOutboxRepo(sqlite, { site: config.site, ppsId: config.ppsId }),
    stock: createStockRepo(sqlite),
    station: createStationRepo(sqlite),
    audits: createAuditsRepo(sqlite),
    reports: createReportsRepo(sqlite),
    requests: createRequestsRepo(sqlite),
    scan: createScanRepo(sqlite),
    screen: createScreenRepo(sqlite),
    screenSessions: createScreenSessionsRepo(sqlite),
    securityEvents: createSecurityEventsRepo(sqlite),
    webhooks: createWebhooksRepo(sqlite),
    seatControl: createSeatControlRepo(sqlite),
    shift: createShiftRepo(sqlite),
    training: createTrainingRepo(sqlite),
  };
}

type Repos = ReturnType<typeof createRepos>;

/** The doors whose dependencies are their own repositories and settings. */
function createDoors(
  repos: Repos,
  unitOfWork: UnitOfWork,
  bus: EventBus,
  { config, log, now, metrics, sleep }: ServiceDeps,
) {
  const retention = config.security;
  const securityLog = createSecurityLog({
    repo: repos.securityEvents,
    now,
    log,
    retention: retention && { days: retention.eventRetentionDays, maxRows: retention.eventMaxRows },
  });
  const auth = createAuthService(repos.auth, {
    clientId: config.clientId,
    tokenTtlSeconds: config.tokenTtlSeconds,
    refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
    now,
    log,
    ...(metrics ? { metrics } : {}),
    security: securityLog.record,
    securityRefused: securityLog.refused,
    ...(sleep ? { sleep } : {}),
  });
  const catalogDeps = {
    catalog: repos.catalog,
    items: repos.items,
    search: config.search ?? DEFAULT_SEARCH_LIMITS,
  };
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
  return {
    auth,
    /** The security event log (recorded by auth, read by admins, pruned in the background). */
    securityLog,
    catalog: createCatalogService(catalogDeps, unitOfWork),
    items: createItemsService(catalogDeps, unitOfWork),
    audits,
    reports: createReportsService(
      {
        repo: repos.reports,
        log,
        dir: resolve(config.dataDir, "reports"),
        retention: config.reports,
        now,
        baseUrl: (caller, port) =>
          config.http.publicUrl ??
          caller ??
          publicBaseUrl({ ...config.http, port: port ?? config.http.port }, hostname()),
      },
      unitOfWork,
    ),
    notifications: createNotificationsService(repos.outbox),
    /** Notifications the broker refused for good: listed, and sent again (docs/mqtt.md#dead-letters). */
    deadLetters: createDeadLetters({
      outbox: repos.outbox,
      transaction: (fn) => unitOfWork.run(() => fn()),
      now,
      log,
    }),
    /** Webhook endpoints for admins (docs/webhooks.md#endpoints); delivery itself is webhook-delivery/. */
    webhooks: createWebhooks({
      repo: repos.webhooks,
      outbox: repos.outbox,
      transaction: (fn) => unitOfWork.run(() => fn()),
      rules: { allow: config.webhooks?.allow ?? NO_ALLOWANCE, selfPort: config.http.port },
      now,
      record: securityLog.record,
    }),
    /** Operators' sessions and the productivity targets (docs/station.md#productivity-and-the-shift). */
    shift: createShiftService({
      repo: repos.shift,
      unitOfWork: unitOfWork.forStation(),
      configured: config.station.productivity ?? { linesPerHour: 0, unitsPerHour: 0 },
    }),
    scanLookup: createScanLookup({
      scan: repos.scan,
      station: repos.station,
      work: createStationWork({ scan: repos.scan, bus }),
      capture: {
        rules: config.station.capture ?? DEFAULT_CAPTURE_RULES,
        items: repos.items,
        requests: repos.requests,
      },
    }),
    screenSessions: createScreenSessions({
      repo: repos.screenSessions,
      login: auth.screenLogin,
      keyAttempt: auth.screenKeyAttempt,
      seats: config.station.seats,
      now,
      security: securityLog.record,
      onForbidden: auth.access.onForbidden,
    }),
  };
}

/** The station's doors: requests, operations and the station read the same request, stock and bins. */
function createStationDoors(
  repos: Repos,
  unitOfWork: UnitOfWork,
  sd: ServiceDeps,
  sessionEnding: (seat: string) => void,
) {
  let heldBins: () => ReadonlySet<string> = () => new Set();
  const deps = {
    requests: repos.requests,
    items: repos.items,
    station: repos.station,
    stock: repos.stock,
    ppsId: sd.config.ppsId,
    timeZone: sd.config.timeZone,
    stagingWithLogout: sd.config.station.stagingWithLogout,
    auditRunning: () => repos.audits.withStatus("started").length > 0,
    lockedLocations: () => repos.audits.lockedLocations(),
    pick: sd.config.pick ?? { ...DEFAULT_PICK_LIMITS, packAttributes: DEFAULT_PACK_MARKERS },
    capture: sd.config.station.capture ?? DEFAULT_CAPTURE_RULES,
    devices: sd.devices ?? (() => []),
    pausedSeats: () => repos.seatControl.pausedSeats(),
    sessionEnding,
    stationPrinting: sd.config.printing?.mode === "station",
    heldBins: () => heldBins(),
  };
  return {
    /** Which bins no order is given now (the bins of seats in training: docs/station.md#bins-of-a-seat). */
    holdBins(held: () => ReadonlySet<string>): void {
      heldBins = held;
    },
    requests: createRequestsService(deps, unitOfWork),
    // the work at the station may use the storage budget's reserve (docs/operations.md#storage-budget)
    operations: createOperations({ deps, unitOfWork: unitOfWork.forStation(), log: sd.log }),
    station: { state: (at: number, site: string) => stationState(deps, at, site) },
    picks: {
      labelData: (id: string, printedAt: string) => labelData(deps, id, printedAt),
      /** The label of a pick+pack box closed as full (docs/station.md#bin-full-box-full). */
      boxLabelData: (id: string, olpn: string, printedAt: string) => boxLabelData(deps, id, olpn, printedAt),
    },
    workOrder: { nextHeldRelease: (at: number) => nextHeldRelease(deps, at) },
    /** Pauses, messages and sign-outs a seat is told (docs/station.md#pausing-a-seat). */
    seatControl: createSeatControl({
      repo: repos.seatControl,
      station: repos.station,
      unitOfWork: unitOfWork.forStation(),
      sessionEnding,
    }),
  };
}

/**
 * Builds every repository and use case over one open database. Pure construction: nothing is read or
 * written here except the station's configured seats and bins, which `init` ensures.
 */
export function createServices(sd: ServiceDeps) {
  const { handle, config, log, now } = sd;
  const bus = sd.bus ?? new EventBus();
  const repos = createRepos(handle, config);
  const storage = createStorageHealth({ log, now, metrics: sd.metrics });
  const budget = config.storage
    ? createStorageBudget({
        budget: config.storage,
        measure: storageMeter(handle.sqlite),
        log,
        metrics: sd.metrics,
        onChange: () => bus.emit("station", {}, (e) => log.error({ err: e }, "station listener failed")),
      })
    : undefined;
  const unitOfWork = createUnitOfWork({
    sqlite: handle.sqlite,
    outbox: repos.outbox,
    bus,
    now,
    log,
    outboxLimit: config.outbox.maxUndelivered,
    ...(config.outbox.maxUndeliveredBytes === undefined
      ? {}
      : { outboxLimitBytes: config.outbox.maxUndeliveredBytes }),
    onCommit: sd.onCommit,
    storage,
    ...(budget ? { budget } : {}),
    memory: [repos.requests, repos.station, repos.audits, repos.seatControl],
  });
  const doors = createDoors(repos, unitOfWork, bus, sd);
  return {
    bus,
    repos,
    unitOfWork,
    /** Whether writes commit (a full disk, an I/O error): the /readyz `storage` check. */
    storage,
    /** Whether the storage budget admits changes: the /readyz `storage_budget` check (none without one). */
    budget,
    ...doors,
    ...createStationDoors(repos, unitOfWork, sd, doors.shift.sessionEnding),
    /** Lifecycle part: the agent starts it after the HTTP app is built and stops it first. */
    auditConflicts: createAuditConflictWatcher({ bus, resolveConflicts: doors.audits.resolveConflicts, log }),
    /** Ensures the configured seats and bins exist; the mode is set only on a new database. */
    init(): void {
      unitOfWork.runUpkeep((t) =>
        repos.station.init(config.station.seats, config.station.bins, config.station.initialMode, t.now),
      );
    },
  };
}

export type Services = ReturnType<typeof createServices>;
