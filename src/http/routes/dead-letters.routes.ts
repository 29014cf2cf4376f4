import type { Hono } from "hono";
import { z } from "zod";
import { deadLetterReplaySchema } from "../../domain/dead-letter.schema.js";
import { rolesFor } from "../../domain/permissions.js";
import type { DeadLetters } from "../../services/notifications/dead-letters.service.js";
import { readOptionalJson } from "../body.js";
import type { AppEnv } from "../context.js";
import type { RouteRegistry } from "../openapi.js";
import { route } from "../route.js";

const deadLetterView = z.object({
  seq: z.number().int(),
  notificationId: z.string(),
  type: z.string().describe("the notification_type"),
  reason: z.string().describe("why the broker will never take it (docs/mqtt.md#dead-letters)"),
  reasonCode: z.number().int().nullable().describe("the MQTT 5 PUBACK reason code, when there was one"),
  deadAt: z.string().describe("when it was moved aside, ISO 8601 UTC"),
});

const replayed = z.object({
  replayed: z
    .array(z.number().int())
    .describe("the seqs put back to be sent again, in the order they go out"),
});

/**
 * Dead letters for admins (docs/mqtt.md#dead-letters): the notifications the broker refused for good,
 * and sending them again once the broker is fixed (services/notifications/dead-letters.service.ts).
 */
export function deadLettersRoutes(dead: Pick<DeadLetters, "list" | "replay">) {
  return (app: Hono<AppEnv>, registry: RouteRegistry) => {
    route(
      app,
      registry,
      {
        method: "get",
        path: "/station/outbox/dead-letters",
        tag: "station",
        summary: "Notifications the broker refused for good (dead letters), in seq order",
        description: "At most 1000; `pps-edge outbox` lists the same on the station.",
        auth: true,
        roles: rolesFor("read_dead_letters"),
        responses: {
          200: {
            description: "the dead letters",
            schema: z.object({ deadLetters: z.array(deadLetterView) }),
          },
        },
      },
      (c) => c.json({ deadLetters: dead.list() }),
    );
    route(
      app,
      registry,
      {
        method: "post",
        path: "/station/outbox/dead-letters/replay",
        tag: "station",
        summary: "Send dead letters again, in seq order, ahead of every notification still waiting",
        description:
          "They go out under their own seq and notification_id. One unknown seq, or one that is not a dead letter, refuses the whole request (404) and changes nothing.",
        auth: true,
        roles: rolesFor("replay_dead_letters"),
        body: deadLetterReplaySchema,
        bodyOptional: true,
        examples: { all: {}, some: { seqs: [1042, 1043] } },
        responses: {
          200: { description: "the seqs put back", schema: replayed },
          400: { description: "bad body", codes: ["validation_failed"] },
          404: { description: "a seq that is not a dead letter", codes: ["not_found"] },
        },
      },
      async (c) => {
        const { seqs } = await readOptionalJson(c, deadLetterReplaySchema);
        return c.json(dead.replay(seqs));
      },
    );
  };
}
