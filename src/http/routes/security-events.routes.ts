import type { Hono } from "hono";
import { z } from "zod";
import { rolesFor } from "../../domain/permissions.js";
import {
  SECURITY_CHANNELS,
  SECURITY_EVENT_KINDS,
  type SecurityEvent,
  securityEventQuerySchema,
  toSecurityEventQuery,
} from "../../domain/security-event.js";
import { validate } from "../../domain/validate.js";
import type { SecurityLog } from "../../services/auth/auth.service.js";
import type { AppEnv } from "../context.js";
import type { RouteRegistry } from "../openapi.js";
import { route } from "../route.js";

const eventView = z.object({
  id: z.number().int(),
  at: z.string().describe("when it happened, ISO 8601 UTC"),
  kind: z.enum(SECURITY_EVENT_KINDS),
  channel: z.enum(SECURITY_CHANNELS),
  username: z.string().nullable().describe("the user name as given; it may name no user"),
  address: z.string().nullable().describe("the client's address (the socket's)"),
  detail: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]))
    .nullable()
    .describe("facts of the event, e.g. a failed login's `reason`; never a password or a token"),
});

const page = z.object({
  events: z.array(eventView),
  nextBeforeId: z
    .number()
    .int()
    .nullable()
    .describe("pass as `before_id` for the next (older) page; null on the last page"),
});

export function eventJson(e: SecurityEvent): z.infer<typeof eventView> {
  return { ...e, at: new Date(e.at).toISOString() };
}

/**
 * The security event log for admins (docs/security.md#security-event-log): logins, failures, lockouts, user
 * changes, token revocations and role refusals, newest first, in pages.
 */
export function securityEventsRoutes(securityLog: Pick<SecurityLog, "list">) {
  return (app: Hono<AppEnv>, registry: RouteRegistry) => {
    route(
      app,
      registry,
      {
        method: "get",
        path: "/station/security-events",
        tag: "station",
        summary: "Security events (logins, lockouts, user changes, revocations, refusals), newest first",
        description:
          "Filters combine; `since` is inclusive and `until` exclusive. A page holds at most `limit` events; `nextBeforeId` fetches the next, older one.",
        auth: true,
        roles: rolesFor("read_security_events"),
        query: securityEventQuerySchema,
        responses: {
          200: { description: "a page of events", schema: page },
          400: { description: "bad query value or unknown parameter", codes: ["validation_failed"] },
        },
      },
      (c) => {
        const query = toSecurityEventQuery(validate(securityEventQuerySchema, c.req.query(), "query"));
        const events = securityLog.list(query);
        const last = events.at(-1);
        const nextBeforeId = events.length === query.limit && last ? last.id : null;
        return c.json({ events: events.map(eventJson), nextBeforeId });
      },
    );
  };
}
