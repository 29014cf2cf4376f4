import type { Hono } from "hono";
import { z } from "zod";
import { rolesFor } from "../../domain/permissions.js";
import type { NotificationsService } from "../../services/notifications/notifications.service.js";
import { validate } from "../body.js";
import type { AppEnv } from "../context.js";
import type { RouteRegistry } from "../openapi.js";
import { route } from "../route.js";

const query = z.object({
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

const page = z.object({
  notifications: z.array(
    z.object({
      seq: z.number().int(),
      delivered: z.boolean(),
      notification: z.object({
        notification_type: z.string(),
        version_number: z.string(),
        notification_id: z.string(),
        notification_data: z.unknown(),
      }),
    }),
  ),
  lastSeq: z.number().int(),
});

/**
 * The outbox in sequence order: every notification the station emitted, for clients that poll
 * and for tests. `lastSeq` is the newest sequence number, so a client knows whether it is behind.
 */
export function notificationsRoutes(notifications: NotificationsService) {
  return (app: Hono<AppEnv>, registry: RouteRegistry) => {
    route(
      app,
      registry,
      {
        method: "get",
        path: "/station/notifications",
        tag: "station",
        summary: "Notifications after a sequence number, oldest first",
        auth: true,
        // what central missed: the same rule as request/replay_notifications (domain/permissions.ts)
        roles: rolesFor("read_notifications"),
        query,
        responses: {
          200: { description: "a page of notifications", schema: page },
          400: { description: "bad query" },
        },
      },
      (c) => {
        const { after, limit } = validate(query, c.req.query(), "query");
        const page = notifications.page(after, limit);
        // the envelopes are JSON text already: spliced in as committed, not parsed and serialised again
        return c.body(
          `{"notifications":[${page.notifications
            .map((r) => `{"seq":${r.seq},"delivered":${r.delivered},"notification":${r.envelope}}`)
            .join(",")}],"lastSeq":${page.lastSeq}}`,
          200,
          { "Content-Type": "application/json" },
        );
      },
    );
  };
}
