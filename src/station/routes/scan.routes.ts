import type { Hono } from "hono";
import { z } from "zod";
import type { BinSimulator } from "../../devices/drivers/sim/simulator.js";
import { AppError, type ErrorCode } from "../../domain/errors.js";
import { rolesFor } from "../../domain/permissions.js";
import { readJson } from "../../http/body.js";
import type { AppEnv } from "../../http/context.js";
import type { RouteRegistry } from "../../http/openapi.js";
import { type Handler, route } from "../../http/route.js";
import { STATION_EXAMPLES as EX } from "../../http/routes/request-examples.js";
import type { Outcome, StationEngine } from "../engine.js";
import { outcomeSchema } from "./outcome.schema.js";

/** What the routes ask of the engine. */
type ScanEngine = Pick<StationEngine, "scan" | "keyin" | "seats" | "last">;

const id = z.string().min(1).max(255);
/** A scanner's line: the profiles allow up to 4096 characters (firmware-profiles `maxLength`). */
const barcode = z.string().min(1).max(4096);
const scanBody = z.object({ seat: id, barcode }).strict();
const keyinBody = z.object({ quantity: z.number().int().min(1).max(1_000_000) }).strict();
const byBin = { ppsBinId: id.optional(), device: id.optional() };
const oneTarget = (b: { ppsBinId?: string | undefined; device?: string | undefined }) =>
  (b.ppsBinId === undefined) !== (b.device === undefined);
const targetMessage = {
  message: "name either ppsBinId, or device with its address/channel",
  path: ["ppsBinId"],
};
const pressBody = z
  .object({ ...byBin, address: id.optional(), button: z.enum(["confirm", "shortage"]).default("confirm") })
  .strict()
  .refine((b) => oneTarget(b) && (b.device === undefined) === (b.address === undefined), targetMessage);
const sensorBody = z
  .object({ ...byBin, channel: id.optional(), active: z.boolean() })
  .strict()
  .refine((b) => oneTarget(b) && (b.device === undefined) === (b.channel === undefined), targetMessage);

/** A refused input is a 409 `scan_refused` naming why; nothing changed (docs/architecture.md#flows). */
function answer(out: Outcome, path: string): Outcome {
  if (out.result !== "refused") return out;
  throw new AppError("scan_refused", out.message ?? "refused", [{ path, message: out.reason ?? "refused" }], {
    reason: out.reason,
    seat: out.seat,
    ...(out.as ? { as: out.as } : {}),
  });
}

const errors = {
  400: { description: "bad body; `errors` names the field" },
  404: { description: "unknown seat, bin or simulated device" },
  409: {
    description: "refused: `details.reason` says why; nothing changed",
    codes: ["scan_refused"] as ErrorCode[],
  },
};

const lightsView = z.object({
  lights: z.array(z.looseObject({ ppsBinId: z.string().nullable(), mode: z.string() })),
});
const simulatedView = lightsView.extend({ outcome: outcomeSchema.nullable() });

/**
 * Scans and key-ins as the devices send them, through the station engine (docs/architecture.md#station-api),
 * and the simulator's controls (docs/architecture.md#the-station-model: simulated devices when no hardware is configured).
 */
export function scanRoutes(engine: ScanEngine, sim: BinSimulator) {
  return (app: Hono<AppEnv>, registry: RouteRegistry) => {
    type Io = { body: z.ZodType; example: unknown; answer?: z.ZodType };
    const post = (path: string, summary: string, io: Io, handler: Handler) =>
      route(
        app,
        registry,
        {
          method: "post",
          path,
          summary,
          tag: "station",
          auth: true,
          // the seat's devices and their simulator: an operator's hands
          roles: rolesFor("seat_input"),
          body: io.body,
          examples: { example: io.example },
          responses: { 200: { description: "done", schema: io.answer ?? outcomeSchema }, ...errors },
        },
        handler,
      );
    const get = (path: string, summary: string, answer: z.ZodType, handler: Handler) =>
      route(
        app,
        registry,
        {
          method: "get",
          path,
          summary,
          tag: "station",
          auth: true,
          roles: rolesFor("read_station"),
          responses: { 200: { description: "done", schema: answer } },
        },
        handler,
      );

    const scan = { body: scanBody, example: EX.scan };
    const simIo = (body: z.ZodType, example: unknown) => ({ body, example, answer: simulatedView });
    post("/station/scans", "A scan at a seat, as a scanner sends it", scan, async (c) => {
      const b = await readJson(c, scanBody);
      return c.json(answer(engine.scan(b.seat, b.barcode), "barcode"));
    });
    const keyin = { body: keyinBody, example: EX.keyin };
    post("/station/seats/:seat/keyin", "A quantity keyed in at a seat", keyin, async (c) => {
      const b = await readJson(c, keyinBody);
      return c.json(answer(engine.keyin(c.req.param("seat") as string, b.quantity), "quantity"));
    });
    const seatsView = z.object({ seats: z.array(z.looseObject({ seat: z.string() })) });
    get("/station/engine", "Each seat's step and the work it has lit", seatsView, (c) =>
      c.json({ seats: engine.seats() }),
    );

    // The simulator: the same events a real device would send, so the engine answers as it would.
    const simulated = (c: Parameters<Handler>[0]) => c.json({ outcome: engine.last(), lights: sim.lights() });
    post(
      "/station/sim/scan",
      "Simulated scanner: scan a barcode at a seat",
      simIo(scanBody, EX.scan),
      async (c) => {
        const b = await readJson(c, scanBody);
        sim.scan(b.seat, b.barcode);
        return simulated(c);
      },
    );
    post(
      "/station/sim/press",
      "Simulated light module: press a bin's button",
      simIo(pressBody, EX.press),
      async (c) => {
        const { button, ...target } = await readJson(c, pressBody);
        sim.press(target, button);
        return simulated(c);
      },
    );
    post(
      "/station/sim/sensor",
      "Simulated bin sensor: block or clear a beam",
      simIo(sensorBody, EX.sensor),
      async (c) => {
        const { active, ...target } = await readJson(c, sensorBody);
        sim.sensor(target, active);
        return simulated(c);
      },
    );
    get("/station/sim/lights", "What every simulated light shows", lightsView, (c) =>
      c.json({ lights: sim.lights() }),
    );
  };
}
