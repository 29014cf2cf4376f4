/**
 * Inventory reports (spec "Endpoints" → "Reports", "Events" → report_generation; DESIGN §4 Report).
 * `generate` commits the request and answers at once; a job, started after the commit, writes the CSV
 * into `<dataDir>/reports/` and then commits `generated` with its notification. A job that fails marks
 * the report failed and logs why. `start()` takes up reports a previous run left requested.
 */
import { mkdir, open, rename, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "pino";
import type { ReportsRepo } from "../db/reports.repo.js";
import { AppError } from "../domain/errors.js";
import { INVENTORY_REPORT_TYPE, inventoryCsv } from "../domain/inventory-report.js";
import type { ItemSchema } from "../domain/item.schema.js";
import { formatTimestamp } from "../domain/timestamp.js";
import type { UnitOfWork } from "./unit-of-work.js";

export interface ReportsDeps {
  repo: ReportsRepo;
  tx: UnitOfWork;
  log: Logger;
  /** Folder the CSV files are written to. */
  dir: string;
  /** Absolute base URL of this agent, without a trailing slash (README: report URL). */
  baseUrl: () => string;
}

export const REPORT_PREFIX = "/api-gateway/platform-dashboard/report";

export function reportFileName(id: number): string {
  return `inventory-${id}.csv`;
}

/** Writes and syncs a file, then renames it into place: a report file is whole or absent. */
async function writeDurably(dir: string, name: string, text: string): Promise<void> {
  const tmp = join(dir, `.${name}.tmp`);
  const file = await open(tmp, "w", 0o640);
  try {
    await file.writeFile(text, "utf8");
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(tmp, join(dir, name));
  const folder = await open(dir, "r");
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}

export function createReportsService(deps: ReportsDeps) {
  const { repo, tx, log } = deps;
  const running = new Set<Promise<void>>();
  let stopping = false;

  function csv(): string {
    return inventoryCsv(
      repo.inventory().map((r) => ({
        schema: JSON.parse(r.schemaJson) as ItemSchema,
        attrs: (r.attrsJson ? JSON.parse(r.attrsJson) : {}) as Record<string, unknown>,
        quantity: r.quantity,
      })),
    );
  }

  async function job(id: number): Promise<void> {
    const report = repo.get(id);
    if (stopping || report?.status !== "requested") return;
    const name = reportFileName(id);
    try {
      await mkdir(deps.dir, { recursive: true, mode: 0o750 });
      await writeDurably(deps.dir, name, csv());
      tx.run((t) => {
        if (!repo.markGenerated(id, name, t.now)) return;
        t.notify("report_generation", {
          id,
          type: report.type,
          report_url: `${deps.baseUrl()}${REPORT_PREFIX}/download/${id}`,
          requested_time: formatTimestamp(report.requestedOn),
          generated_time: formatTimestamp(t.now),
        });
      });
      log.info({ reportId: id }, "report generated");
    } catch (err) {
      log.error({ err, reportId: id }, "report generation failed");
      try {
        tx.run(() => repo.markFailed(id));
      } catch (e) {
        // left requested: the next start takes it up again
        log.error({ err: e, reportId: id }, "could not mark the report failed");
      }
      await unlink(join(deps.dir, `.${name}.tmp`)).catch(() => undefined);
    }
  }

  /** Runs the job on a later turn of the event loop, never inside the request that asked for it. */
  function schedule(id: number): void {
    const p = new Promise<void>((done) => setImmediate(() => void job(id).finally(done)));
    running.add(p);
    void p.finally(() => running.delete(p));
  }

  return {
    generate(): { id: number } {
      const id = tx.run((t) => repo.insert(INVENTORY_REPORT_TYPE, t.now));
      schedule(id);
      return { id };
    },

    /** The generated file of a report: 404 unknown, 409 while requested or after a failure. */
    file(id: number): { path: string; name: string } {
      const r = repo.get(id);
      if (!r) throw new AppError("not_found", `no report ${id}`, [{ path: "id", message: "unknown report" }]);
      if (r.status !== "generated" || !r.fileName) {
        throw new AppError("invalid_state", `report ${id} is ${r.status}`, [], { id, status: r.status });
      }
      return { path: join(deps.dir, r.fileName), name: r.fileName };
    },

    /** Finishes reports a previous run left requested (a stop or a crash between request and file). */
    start(): void {
      stopping = false;
      for (const r of repo.requested()) schedule(r.id);
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

/**
 * The base of the URLs the agent hands out: `http.publicUrl` when set, else `http://host:port`, with the
 * machine's name for a wildcard listen address (0.0.0.0 or ::) that no client could connect to.
 */
export function publicBaseUrl(
  http: { host: string; port: number; publicUrl?: string | undefined },
  hostname: string,
): string {
  if (http.publicUrl) return http.publicUrl;
  const host = http.host === "0.0.0.0" || http.host === "::" ? hostname : http.host;
  return `http://${host.includes(":") ? `[${host}]` : host}:${http.port}`;
}
