import type { Hono } from "hono";
import { z } from "zod";
import { rolesFor } from "../../domain/permissions.js";
import { readJson } from "../../http/body.js";
import type { AppEnv } from "../../http/context.js";
import type { RouteRegistry } from "../../http/openapi.js";
import { route } from "../../http/route.js";
import type { StationMode } from "../seat.types.js";

/**
 * Training (docs/station.md#training): which seats work against the training station, putting a seat
 * in or out of training, and starting the training over from its scenario. The training station itself
 * has no routes: a seat in training is served at its own screen address.
 */
export interface TrainingPort {
  view(): { seats: string[] };
  set(seat: string, training: boolean): Promise<{ seats: string[] }>;
  reset(mode?: StationMode): Promise<{ seats: string[] }>;
}

const trainingView = z.object({
  seats: z.array(z.string()).describe("the seats in training, in the station's order"),
});
const seatTrainingBody = z
  .object({ training: z.boolean().describe("true: the seat enters training; false: it leaves") })
  .strict();
const resetBody = z
  .object({
    mode: z
      .enum(["pick", "put", "audit"])
      .optional()
      .describe("the training station's mode after starting over; absent: the scenario's (pick)"),
  })
  .strict();

const answer = { description: "the seats in training", schema: trainingView };

export function trainingRoutes(training: TrainingPort) {
  return (app: Hono<AppEnv>, registry: RouteRegistry) => {
    route(
      app,
      registry,
      {
        method: "get",
        path: "/station/training",
        tag: "station",
        summary: "The seats in training (docs/station.md#training)",
        auth: true,
        roles: rolesFor("read_training"),
        responses: { 200: answer },
      },
      (c) => c.json(training.view()),
    );
    route(
      app,
      registry,
      {
        method: "put",
        path: "/station/seats/:seat/training",
        tag: "station",
        summary:
          "Put a seat in or out of training: in training its screen works against the training station, and nothing reaches central",
        auth: true,
        roles: rolesFor("set_training"),
        body: seatTrainingBody,
        examples: { enter: { training: true }, leave: { training: false } },
        responses: {
          200: answer,
          400: { description: "bad body; `errors` names the field" },
          404: { description: "no such seat" },
          409: {
            description: "an operator is logged in at the seat on the station: log out first",
            codes: ["invalid_state"],
          },
        },
      },
      async (c) => {
        const { training: on } = await readJson(c, seatTrainingBody);
        return c.json(await training.set(c.req.param("seat") as string, on));
      },
    );
    route(
      app,
      registry,
      {
        method: "post",
        path: "/station/training/reset",
        tag: "station",
        summary:
          "Start the training over: the training database is made anew from the training scenario; the seats stay in training",
        auth: true,
        roles: rolesFor("reset_training"),
        body: resetBody,
        examples: { reset: {}, put: { mode: "put" } },
        responses: {
          200: answer,
          400: { description: "bad body; `errors` names the field" },
          409: {
            description:
              "the training scenario file cannot be seeded (`errors` names its part, under `station.trainingScenario`)",
            codes: ["invalid_state"],
          },
        },
      },
      async (c) => c.json(await training.reset((await readJson(c, resetBody)).mode)),
    );
  };
}
