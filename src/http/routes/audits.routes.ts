import type { Hono } from "hono";
import {
  auditBeginSchema,
  auditCountSchema,
  auditCreatedSchema,
  auditCreateSchema,
  auditDeletedSchema,
  auditViewSchema,
} from "../../domain/audit.schema.js";
import type { ErrorCode } from "../../domain/errors.js";
import { rolesFor } from "../../domain/permissions.js";
import { AUDIT_ACTIONS, type AuditAction, type AuditsService } from "../../services/audit/audit.service.js";
import { readJson, readOptionalJson } from "../body.js";
import type { AppEnv } from "../context.js";
import type { RouteRegistry } from "../openapi.js";
import { route } from "../route.js";
import { AUDIT_COUNT_EXAMPLE, AUDIT_EXAMPLES } from "./request-examples.js";

export const CORE_API_PREFIX = "/api-gateway/integration-service/wms-integration/core/api";

const ACTION_SUMMARY: Record<AuditAction, string> = {
  start: "Start an audit (dashboard): build its lines from stock, then queued or waiting_on_conflict",
  approve: "Approve a counted audit: stock set to the counted good quantities",
  reject: "Reject a counted audit",
  reaudit: "Send a rejected audit for re-audit: its rejected lines are counted again",
  cancel: "Cancel an audit that is not finished",
  pause: "Pause an audit; resume returns it to where it was",
  resume: "Resume a paused audit",
};

const stateError = {
  description: "the audit's state does not allow this",
  codes: ["invalid_state"] as ErrorCode[],
};
const unknownAudit = { description: "unknown audit id" };

/** Audits: the spec's create and delete, and the station's audit actions (docs/architecture.md#station-api). */
export function auditsRoutes(audits: AuditsService, now: () => number) {
  return (app: Hono<AppEnv>, registry: RouteRegistry) => {
    specRoutes(app, registry, audits);
    stationRoutes(app, registry, audits, now);
    countingRoutes(app, registry, audits);
  };
}

/** Spec "Endpoints" → "Audits": create and delete. */
function specRoutes(app: Hono<AppEnv>, registry: RouteRegistry, audits: AuditsService): void {
  route(
    app,
    registry,
    {
      method: "post",
      path: `${CORE_API_PREFIX}/audit`,
      tag: "audits",
      summary: "Create an audit of locations or SKUs",
      auth: true,
      roles: rolesFor("create_audit"),
      body: auditCreateSchema,
      examples: AUDIT_EXAMPLES,
      responses: {
        200: { description: "the new audit's id", schema: auditCreatedSchema },
        400: { description: "bad data; `errors` names the field" },
        401: { description: "unauthorized" },
      },
    },
    async (c) => c.json(audits.create(await readJson(c, auditCreateSchema))),
  );

  route(
    app,
    registry,
    {
      method: "delete",
      path: `${CORE_API_PREFIX}/audit/delete/:audit_id`,
      tag: "audits",
      summary: "Delete an audit that has not been started",
      auth: true,
      roles: rolesFor("delete_audit"),
      responses: {
        200: { description: "deleted", schema: auditDeletedSchema },
        401: { description: "unauthorized" },
        404: { description: "unknown audit id, or an audit already deleted" },
        409: { description: "the audit was started (or paused, or is finished)", codes: ["invalid_state"] },
      },
    },
    (c) => c.json(audits.delete(c.req.param("audit_id") ?? "")),
  );
}

/** The dashboard's view of an audit and its actions (docs/architecture.md#station-api). */
function stationRoutes(
  app: Hono<AppEnv>,
  registry: RouteRegistry,
  audits: AuditsService,
  now: () => number,
): void {
  route(
    app,
    registry,
    {
      method: "get",
      path: "/station/audits/:audit_id",
      tag: "station",
      summary: "The audit as it is now, with its lines",
      auth: true,
      roles: rolesFor("read_audit"),
      responses: { 200: { description: "the audit", schema: auditViewSchema }, 404: unknownAudit },
    },
    (c) => c.json(audits.get(c.req.param("audit_id") ?? "", now())),
  );

  for (const action of AUDIT_ACTIONS) {
    route(
      app,
      registry,
      {
        method: "post",
        path: `/station/audits/:audit_id/${action}`,
        tag: "station",
        summary: ACTION_SUMMARY[action],
        auth: true,
        // the manager dashboard's actions (an approval corrects stock): for admins; the operator at the
        // station may pause the audit being counted (called away) and resume it (docs/decisions.md)
        roles: rolesFor(`audit_${action}`),
        responses: {
          200: { description: "the audit after the move", schema: auditViewSchema },
          404: unknownAudit,
          409: stateError,
        },
      },
      (c) => c.json(audits.act(c.req.param("audit_id") ?? "", action)),
    );
  }
}

/** Counting at the station: begin at a seat, key in a line's count. */
function countingRoutes(app: Hono<AppEnv>, registry: RouteRegistry, audits: AuditsService): void {
  route(
    app,
    registry,
    {
      method: "post",
      path: "/station/audits/:audit_id/begin",
      tag: "station",
      summary: "Begin counting a queued audit at a seat (station in audit mode, operator logged in)",
      auth: true,
      roles: rolesFor("audit_begin"),
      body: auditBeginSchema,
      bodyOptional: true,
      examples: { seat: { seat: "front" } },
      responses: {
        200: { description: "the started audit", schema: auditViewSchema },
        400: { description: "bad body or unknown seat" },
        404: unknownAudit,
        409: {
          description: "not queued, station not in audit mode, no operator, or another audit counting",
          codes: ["invalid_state", "wrong_mode", "not_logged_in"],
        },
      },
    },
    async (c) => {
      const { seat } = await readOptionalJson(c, auditBeginSchema);
      return c.json(audits.begin(c.req.param("audit_id") ?? "", seat));
    },
  );

  route(
    app,
    registry,
    {
      method: "post",
      path: "/station/audits/:audit_id/count",
      tag: "station",
      summary: "Key in the count of one audit line (only for audits created with kq true)",
      auth: true,
      roles: rolesFor("audit_count"),
      body: auditCountSchema,
      examples: { count: AUDIT_COUNT_EXAMPLE },
      responses: {
        200: { description: "the audit after the count", schema: auditViewSchema },
        400: { description: "bad data; `errors` names the field" },
        404: { description: "unknown audit or line" },
        409: {
          description: "counts are scanned for an audit created with kq false, or the audit is not counting",
          codes: ["keyin_not_allowed", "invalid_state"],
        },
      },
    },
    async (c) => c.json(audits.count(c.req.param("audit_id") ?? "", await readJson(c, auditCountSchema))),
  );
}
