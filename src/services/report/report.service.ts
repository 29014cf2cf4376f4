/**
 * The report aggregate's door (docs/interface.md "Endpoints" → "Reports", "Events" → report_generation;
 * docs/architecture.md#report). `generate` commits the request and answers at once; a job, started after the commit, writes
 * the CSV into `<dataDir>/reports/` and then commits `generated` with its notification. A job that fails
 * marks the report failed and logs why. `start()` takes up reports a previous run left requested.
 * Callers import this module only.
 */
import { mkdir, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "pino";
import type { ReportRow, ReportsRepo } from "../../db/reports.repo.js";
import { AppError } from "../../domain/errors.js";
import { INVENTORY_REPORT_TYPE, inventoryCsv } from "../../domain/inventory-report.js";
import type { ItemSchema } from "../../domain/item.schema.js";
import { formatTimestamp } from "../../domain/timestamp.js";
import { writeFileDurablyAsync } from "../../durable-file.js";
import type { Tx, UnitOfWork } from "../unit-of-work/unit-of-work.js";
import { reportFileName } from "./report-file.js";

export { publicBaseUrl, reportFileName } from "./report-file.js";

export interface ReportDeps {
  repo: ReportsRepo;
  log: Logger;
  /** Folder the CSV files are written to. */
  dir: string;
  /**
   * Absolute base URL of this agent, without a trailing slash (docs/decisions.md#reports): the
   * configured `http.publicUrl` when set, else the base the caller reached the agent at (`caller`, from
   * the generate call's `Host`), else the listen address: `listenerPort` is the port the server is bound
   * to once it listens (the configured one may be 0, "any free port").
   */
  baseUrl: (caller: string | null, listenerPort?: number) => string;
  /** How many finished reports are kept, and for how long (config `reports.*`); none: all are kept. */
  retention?: { keep: number; maxAgeDays: number } | undefined;
  now?: () => number;
}

/**
 * Deletes the finished reports past retention: each row first, then its file, so a download never finds
 * a row without its file; a file that cannot be removed is logged and left. Answers how many went.
 * Housekeeping, as the security log's pruning: no notification, and admitted past the storage budget.
 */
export async function pruneReports(deps: ReportDeps, now: number): Promise<number> {
  const { retention } = deps;
  if (!retention) return 0;
  const stale = deps.repo.stale(now - retention.maxAgeDays * 86_400_000, retention.keep);
  let removed = 0;
  for (const r of stale) {
    if (!deps.repo.remove(r.id)) continue;
    removed++;
    if (r.fileName)
      await unlink(join(deps.dir, r.fileName)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== "ENOENT")
          deps.log.warn({ err, reportId: r.id }, "could not remove a pruned report's file");
      });
  }
  if (removed) deps.log.info({ removed }, "inventory reports past retention removed");
  return removed;
}

export const REPORT_PREFIX = "/api-gateway/platform-dashboard/report";

/**
 * A report requested: it is generated after this transaction commits. `callerBase` is the base URL the
 * caller reached the agent at (null over MQTT), kept with the report so its `report_url` points where
 * the caller can reach, also when a restart generates it.
 */
export function requestReport({ repo }: ReportDeps, tx: Tx, callerBase: string | null = null): number {
  return repo.insert(INVENTORY_REPORT_TYPE, tx.now, callerBase);
}

/** The report is generated: its file is in place; report_generation says where. */
export function recordGenerated(deps: ReportDeps, report: ReportRow, name: string, tx: Tx): void {
  if (!deps.repo.markGenerated(report.id, name, tx.now)) return;
  tx.notify("report_generation", {
    id: report.id,
    type: report.type,
    report_url: `${deps.baseUrl(report.baseUrl)}${REPORT_PREFIX}/download/${report.id}`,
    requested_time: formatTimestamp(report.requestedOn),
    generated_time: formatTimestamp(tx.now),
  });
}

/** The generated file of a report: 404 unknown, 409 while requested or after a failure. */
export function reportFile(deps: ReportDeps, id: number): { path: string; name: string } {
  const r = deps.repo.get(id);
  if (!r) throw new AppError("not_found", `no report ${id}`, [{ path: "id", message: "unknown report" }]);
  if (r.status !== "generated" || !r.fileName) {
    throw new AppError("invalid_state", `report ${id} is ${r.status}`, [], { id, status: r.status });
  }
  return { path: join(deps.dir, r.fileName), name: r.fileName };
}

function csv({ repo }: ReportDeps): string {
  return inventoryCsv(
    repo.inventory().map((r) => ({
      schema: JSON.parse(r.schemaJson) as ItemSchema,
      attrs: (r.attrsJson ? JSON.parse(r.attrsJson) : {}) as Record<string, unknown>,
      quantity: r.quantity,
    })),
  );
}

/** Writes the report's file, then records it generated; on failure marks it failed. */
async function generate(deps: ReportDeps, uow: UnitOfWork, report: ReportRow): Promise<void> {
  const { log } = deps;
  const name = reportFileName(report.id);
  try {
    await mkdir(deps.dir, { recursive: true, mode: 0o750 });
    // whole or absent after a power cut (durable-file.ts)
    await writeFileDurablyAsync(join(deps.dir, name), csv(deps), 0o640);
    uow.run((tx) => recordGenerated(deps, report, name, tx));
    log.info({ reportId: report.id }, "report generated");
  } catch (err) {
    log.error({ err, reportId: report.id }, "report generation failed");
    try {
      uow.run(() => deps.repo.markFailed(report.id));
    } catch (e) {
      // left requested: the next start takes it up again
      log.error({ err: e, reportId: report.id }, "could not mark the report failed");
    }
    await unlink(join(deps.dir, `.${name}.tmp`)).catch(() => undefined);
  }
}

export function createReportsService(reportDeps: ReportDeps, uow: UnitOfWork) {
  const running = new Set<Promise<void>>();
  let stopping = false;
  let listenerPort: number | undefined;
  const deps: ReportDeps = { ...reportDeps, baseUrl: (caller) => reportDeps.baseUrl(caller, listenerPort) };

  async function job(id: number): Promise<void> {
    const report = deps.repo.get(id);
    if (stopping || report?.status !== "requested") return;
    await generate(deps, uow, report);
  }

  /** Runs the job on a later turn of the event loop, never inside the request that asked for it. */
  function schedule(id: number): void {
    const p = new Promise<void>((done) => setImmediate(() => void job(id).finally(done)));
    running.add(p);
    void p.finally(() => running.delete(p));
  }

  return {
    generate(callerBase: string | null = null): { id: number } {
      const id = uow.run((tx) => requestReport(deps, tx, callerBase));
      schedule(id);
      return { id };
    },
    file: (id: number) => reportFile(deps, id),
    /**
     * The HTTP server is bound to `port`: a report asked for without a caller's base (over MQTT) points
     * at the port it actually listens on, also when `http.port` is 0.
     */
    listeningOn(port: number): void {
      listenerPort = port;
    },
    /** Removes finished reports past `reports.keep` / `reports.maxAgeDays` (with their files). */
    prune: (): Promise<number> => pruneReports(deps, (deps.now ?? Date.now)()),
    /** Finishes reports a previous run left requested (a stop or a crash between request and file). */
    start(): void {
      stopping = false;
      for (const r of deps.repo.requested()) schedule(r.id);
      void pruneReports(deps, (deps.now ?? Date.now)()).catch((err: unknown) =>
        deps.log.error({ err }, "pruning reports failed"),
      );
    },
    /** Lets running jobs finish; jobs not yet begun stay requested for the next start. */
    async stop(): Promise<void> {
      stopping = true;
      await Promise.all(running);
    },
    /** Resolves when every scheduled job has ended (tests, shutdown). */
    async idle(): Promise<void> {
      while (running.size) await Promise.all(running);
    },
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;
