import type { Hono } from "hono";
import { z } from "zod";
import type { ErrorCode } from "../../domain/errors.js";
import { rolesFor } from "../../domain/permissions.js";
import { pauseBodySchema, resumeBodySchema, seatMessageSchema } from "../../domain/seat-control.schema.js";
import { readJson } from "../../http/body.js";
import type { AppEnv } from "../../http/context.js";
import type { RouteRegistry } from "../../http/openapi.js";
import { type Handler, route } from "../../http/route.js";
import type { SeatControl } from "../../services/seat-control/seat-control.service.js";

/** A seat's pause as the pause and resume answer it. */
const pauseView = z.object({
  seat: z.string(),
  paused: z.boolean(),
  sources: z.array(z.object({ source: z.string(), by: z.string(), reason: z.string(), since: z.string() })),
});

const errors = {
  400: { description: "bad data; `errors` names the field" },
  404: { description: "unknown seat" },
  409: {
    description: "nothing to resume: the seat is not paused, or only its pause input holds it",
    codes: ["invalid_state"] as ErrorCode[],
  },
};

const messageBody = seatMessageSchema.omit({ seat: true });

/**
 * What central tells a seat over HTTP, as over MQTT (docs/mqtt.md#telling-a-seat): pause and resume it,
 * and a message for its operator. The same door (services/seat-control) answers both.
 */
export function seatControlRoutes(control: SeatControl) {
  return (app: Hono<AppEnv>, registry: RouteRegistry) => {
    const post =
      (path: string, summary: string, spec: { body: z.ZodType; answer: z.ZodType; example: unknown }) =>
      (handler: Handler) =>
        route(
          app,
          registry,
          {
            method: "post",
            path,
            summary,
            tag: "station",
            auth: true,
            roles: rolesFor(path.endsWith("messages") ? "message_seat" : "pause_seat"),
            body: spec.body,
            examples: { example: spec.example },
            responses: { 200: { description: "the seat afterwards", schema: spec.answer }, ...errors },
          },
          handler,
        );
    const seat = (c: { req: { param(name: string): string | undefined } }) => c.req.param("seat") as string;
    post("/station/seats/:seat/pause", "Pause a seat: every scan and tap is refused until it is resumed", {
      body: pauseBodySchema,
      answer: pauseView,
      example: { reason: "Restocking the rack: wait", by: "Shift lead" },
    })(async (c) => {
      const b = await readJson(c, pauseBodySchema);
      return c.json(control.pause(seat(c), "central", b.by ?? c.get("user").username, b.reason));
    });
    post("/station/seats/:seat/resume", "Resume a seat paused by central or a supervisor", {
      body: resumeBodySchema,
      answer: pauseView,
      example: {},
    })(async (c) => {
      const b = await readJson(c, resumeBodySchema);
      return c.json(control.resume(seat(c), "central", b.by ?? c.get("user").username));
    });
    post("/station/seats/:seat/messages", "A message for the seat's operator, shown until acknowledged", {
      body: messageBody,
      answer: z.object({ seat: z.string(), id: z.number() }),
      example: { text: "Please come to the office at the end of your shift" },
    })(async (c) => {
      const b = await readJson(c, messageBody);
      return c.json(control.send(seat(c), b.text, b.by ?? c.get("user").username));
    });
  };
}
