import type { Context, Hono } from "hono";
import { z } from "zod";
import {
  webhookCreateSchema,
  webhookId,
  webhookPatchSchema,
  webhookReplaySchema,
} from "../../domain/webhook-endpoint.schema.js";
import type { Caller, Webhooks } from "../../services/webhooks/webhooks.service.js";
import { readJson } from "../body.js";
import type { AppEnv } from "../context.js";
import type { RouteRegistry } from "../openapi.js";
import { route } from "../route.js";

/** An endpoint as admins see it (services/webhooks/webhooks.service.ts `WebhookView`): never its secret. */
const webhookView = z.object({
  id: z.string(),
  url: z.string(),
  types: z.array(z.string()).nullable().describe("the notification types it gets; null: all"),
  enabled: z.boolean(),
  disabledReason: z.string().nullable().describe("`gone` (410), `horizon`, `admin` or `config`"),
  disabledAt: z.string().nullable(),
  source: z.enum(["config", "admin"]).describe("`config`: the config file owns its URL, types and secret"),
  deliveredSeq: z.number().int().describe("every notification up to this seq it wants was answered 2xx"),
  attempts: z.number().int().describe("failed attempts at its oldest undelivered notification"),
  failingSince: z.string().nullable(),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  lastDeliveredAt: z.string().nullable(),
  replay: z.object({ next: z.number().int(), to: z.number().int() }).nullable(),
});

const params = z.object({ id: webhookId });
const unknown = { description: "no such endpoint", codes: ["not_found" as const] };
const invalid = {
  description: "bad body",
  codes: ["validation_failed" as const, "webhook_url_refused" as const],
};
const inConfig = { description: "declared in the config file", codes: ["webhook_in_config" as const] };

const caller = (c: Context<AppEnv>): Caller => ({ channel: "http", username: c.get("user").username });
const idOf = (c: Context<AppEnv>): string => c.req.param("id") ?? "";

/**
 * Webhook endpoints for admins (docs/webhooks.md#endpoints): list, add, change, remove, enable again,
 * disable and replay a range. `pps-edge webhooks` does the same on the station.
 */
export function webhooksRoutes(hooks: Webhooks) {
  return (app: Hono<AppEnv>, registry: RouteRegistry) => {
    const admin = { tag: "station", auth: true as const, roles: ["admin" as const] };
    route(
      app,
      registry,
      {
        ...admin,
        method: "get",
        path: "/station/webhooks",
        summary: "Webhook endpoints with their cursor and last status",
        responses: {
          200: { description: "the endpoints", schema: z.object({ endpoints: z.array(webhookView) }) },
        },
      },
      (c) => c.json({ endpoints: hooks.list() }),
    );
    route(
      app,
      registry,
      {
        ...admin,
        method: "post",
        path: "/station/webhooks",
        summary: "Add a webhook endpoint: it gets every notification committed from now on",
        description:
          "A `secret` left out is generated and answered once, in `secret`; it is never shown again.",
        body: webhookCreateSchema,
        examples: { all: { id: "central", url: "https://wms.example.com/hooks/pps" } },
        responses: {
          201: {
            description: "the endpoint (and its generated secret)",
            schema: z.object({ endpoint: webhookView, secret: z.string().optional() }),
          },
          400: invalid,
          409: { description: "the id exists", codes: ["webhook_exists"] },
        },
      },
      async (c) => c.json(hooks.create(await readJson(c, webhookCreateSchema), caller(c)), 201),
    );
    route(
      app,
      registry,
      {
        ...admin,
        method: "get",
        path: "/station/webhooks/:id",
        params,
        summary: "One webhook endpoint",
        responses: { 200: { description: "the endpoint", schema: webhookView }, 404: unknown },
      },
      (c) => c.json(hooks.get(idOf(c))),
    );
    route(
      app,
      registry,
      {
        ...admin,
        method: "put",
        path: "/station/webhooks/:id",
        params,
        summary: "Change a webhook endpoint's URL, types or secret (those named); its cursor stays",
        body: webhookPatchSchema,
        examples: { types: { types: ["bin_complete"] } },
        responses: {
          200: { description: "the endpoint", schema: webhookView },
          400: invalid,
          404: unknown,
          409: inConfig,
        },
      },
      async (c) => c.json(hooks.update(idOf(c), await readJson(c, webhookPatchSchema), caller(c))),
    );
    route(
      app,
      registry,
      {
        ...admin,
        method: "delete",
        path: "/station/webhooks/:id",
        params,
        summary: "Remove a webhook endpoint and its cursor",
        responses: {
          200: { description: "removed", schema: z.object({ removed: z.string() }) },
          404: unknown,
          409: inConfig,
        },
      },
      (c) => {
        hooks.remove(idOf(c), caller(c));
        return c.json({ removed: idOf(c) });
      },
    );
    for (const action of ["enable", "disable"] as const)
      route(
        app,
        registry,
        {
          ...admin,
          method: "post",
          path: `/station/webhooks/:id/${action}`,
          params,
          summary:
            action === "enable"
              ? "Enable a disabled webhook endpoint: it goes on from its cursor, nothing skipped"
              : "Disable a webhook endpoint: nothing more is sent; its cursor is kept",
          responses: { 200: { description: "the endpoint", schema: webhookView }, 404: unknown },
        },
        (c) => c.json(hooks[action](idOf(c), caller(c))),
      );
    route(
      app,
      registry,
      {
        ...admin,
        method: "post",
        path: "/station/webhooks/:id/replay",
        params,
        summary: "Send seq `from`..`to` again to this endpoint, in order, before it goes on",
        description:
          "Only notifications of its types; the range stops at its cursor (what is after it is sent anyway). Each goes out under its own `webhook-id` again.",
        body: webhookReplaySchema,
        examples: { range: { from: 1042, to: 1100 } },
        responses: {
          200: { description: "the endpoint, with the replay under way", schema: webhookView },
          400: invalid,
          404: unknown,
          409: {
            description: "the range starts before the oldest notification kept",
            codes: ["replay_not_kept"],
          },
        },
      },
      async (c) => c.json(hooks.replay(idOf(c), await readJson(c, webhookReplaySchema), caller(c))),
    );
  };
}
