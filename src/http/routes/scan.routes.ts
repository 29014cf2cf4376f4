import type { Hono } from "hono";
import { z } from "zod";
import { AppError, type ErrorCode } from "../../domain/errors.js";
import { rolesFor } from "../../domain/permissions.js";
import { readJson } from "../body.js";
import type { AppEnv } from "../context.js";
import type { RouteRegistry } from "../openapi.js";
import { type Handler, route } from "../route.js";
import { STATION_EXAMPLES as EX } from "./request-examples.js";

/**
 * What the station engine answers for one input (src/station/engine.ts `Outcome`), as the response
 * body's schema below documents it: the routes read it by that schema, which the engine's type meets.
 */
type ScanOutcome = z.output<typeof scanOutcomeSchema>;

export interface ScanPort {
  scan(seat: string, barcode: string): ScanOutcome;
  keyin(seat: string, quantity: number): ScanOutcome;
  seats(): unknown[];
  last(): ScanOutcome | null;
}

/** The simulated devices, addressed by bin (its light, button or beam) or by device. */
export interface SimPort {
  scan(seat: string, barcode: string): void;
  press(
    target: { ppsBinId?: string; device?: string; address?: string },
    button: "confirm" | "shortage",
  ): void;
  sensor(target: { ppsBinId?: string; device?: string; channel?: string }, active: boolean): void;
  lights(): unknown[];
}

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
function answer(out: ScanOutcome, path: string): ScanOutcome {
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

/** The engine's answer to one input (src/station/engine.ts `Outcome`). */
export const scanOutcomeSchema = z.looseObject({
  seat: z.string().nullable(),
  result: z.enum(["done", "refused", "debounced", "ignored"]),
  reason: z.string().optional(),
  message: z.string().optional(),
  as: z.string().optional().describe("what the barcode was read as"),
});
const lightsView = z.object({
  lights: z.array(z.looseObject({ ppsBinId: z.string().nullable(), mode: z.string() })),
});
const simulatedView = lightsView.extend({ outcome: scanOutcomeSchema.nullable() });

/**
 * Scans and key-ins as the devices send them, through the station engine (docs/architecture.md#station-api),
 * and the simulator's controls (docs/architecture.md#the-station-model: simulated devices when no hardware is configured).
 */
export function scanRoutes(engine: ScanPort, sim: SimPort) {
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
          responses: { 200: { description: "done", schema: io.answer ?? scanOutcomeSchema }, ...errors },
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
