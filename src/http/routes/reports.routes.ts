import { readFile } from "node:fs/promises";
import type { Hono } from "hono";
import { z } from "zod";
import { AppError } from "../../domain/errors.js";
import { rolesFor } from "../../domain/permissions.js";
import { REPORT_PREFIX, type ReportsService } from "../../services/report/report.service.js";
import type { AppEnv } from "../context.js";
import type { RouteRegistry } from "../openapi.js";
import { route } from "../route.js";

/** Report ids are positive integers (spec: `{id}` "integer report id"). */
const REPORT_ID = /^[1-9]\d{0,15}$/;
const reportParams = z.object({
  id: z.string().regex(REPORT_ID).describe("The report id, a positive integer."),
});

function reportId(raw: string | undefined): number {
  if (!raw || !REPORT_ID.test(raw)) {
    throw new AppError("validation_failed", `id: ${raw ?? ""} is not a report id`, [
      { path: "id", message: "a positive integer" },
    ]);
  }
  return Number(raw);
}

/** A Host header as RFC 9110 allows it: a name or IPv4 address, or a bracketed IPv6 one, and a port. */
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9-]{1,63})*|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/**
 * The base URL the caller reached the agent at: the scheme it used and its `Host` header (spec: the
 * report_url must be reachable by the caller; a LAN caller cannot reach 127.0.0.1). Null without a
 * well-formed Host, then the configured base serves (docs/decisions.md#reports).
 */
function callerBase(host: string | undefined, url: string): string | null {
  if (!host || !HOST.test(host)) return null;
  return `${new URL(url).protocol}//${host}`;
}

/** Inventory report: request it, then download the CSV the report_generation notification points to. */
export function reportsRoutes(reports: ReportsService) {
  return (app: Hono<AppEnv>, registry: RouteRegistry) => {
    route(
      app,
      registry,
      {
        method: "post",
        path: `${REPORT_PREFIX}/generate-inventory-report`,
        tag: "reports",
        summary: "Request an inventory report; a report_generation notification follows with its URL",
        auth: true,
        roles: rolesFor("generate_inventory_report"),
        costly: true,
        responses: {
          200: { description: "the report id", schema: z.object({ id: z.number().int() }) },
          401: { description: "unauthorized" },
        },
      },
      (c) => c.json(reports.generate(callerBase(c.req.header("host"), c.req.url))),
    );

    route(
      app,
      registry,
      {
        method: "get",
        path: `${REPORT_PREFIX}/download/:id`,
        tag: "reports",
        summary: "Download a generated report (the report_url of its notification)",
        auth: true,
        roles: rolesFor("download_report"),
        produces: "text/csv",
        params: reportParams,
        responses: {
          200: { description: "the CSV file" },
          400: { description: "the id is not an integer" },
          401: { description: "unauthorized" },
          404: { description: "unknown report, or its file is gone" },
          409: {
            description: "the report is not generated (still requested, or failed)",
            codes: ["invalid_state"],
          },
        },
      },
      async (c) => {
        const file = reports.file(reportId(c.req.param("id")));
        const text = await readFile(file.path, "utf8").catch((err: NodeJS.ErrnoException) => {
          if (err.code !== "ENOENT") throw err;
          throw new AppError("not_found", `the file of report ${file.name} is gone from the data folder`);
        });
        return c.body(text, 200, {
          "Content-Type": "text/csv; charset=utf-8",
          "Content-Disposition": `attachment; filename="${file.name}"`,
        });
      },
    );
  };
}
