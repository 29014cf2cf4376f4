import type { Hono } from "hono";
import { z } from "zod";
import type { ErrorCode } from "../../domain/errors.js";
import { rolesFor } from "../../domain/permissions.js";
import type { Role } from "../../domain/roles.js";
import {
  loginSchema,
  pickExceptionSchema,
  pickTransactionSchema,
  putBackStageSchema,
  putExceptionSchema,
  putTransactionSchema,
  rackPresentedSchema,
  stationModeSchema,
  stockAdjustSchema,
} from "../../domain/station.schema.js";
import { readJson } from "../../http/body.js";
import type { AppEnv } from "../../http/context.js";
import type { RouteRegistry, RouteSpec } from "../../http/openapi.js";
import { type Handler, route } from "../../http/route.js";
import { STATION_EXAMPLES as EX } from "../../http/routes/request-examples.js";
import { srView } from "../../http/routes/requests.routes.js";
import type { Operations } from "../../services/operations/operations.service.js";

const ok = z.object({ ok: z.literal(true) });

/** GET /station/state (services/station/station-state.ts); the queues' entries are described there. */
const stationView = z.looseObject({
  site: z.string(),
  ppsId: z.string(),
  mode: stationModeSchema.shape.mode,
  seats: z.array(
    z.object({
      seat: z.string(),
      user: z.string().nullable(),
      loggedInAt: z.string().nullable(),
      // the seat is paused (docs/station.md#pausing-a-seat)
      paused: z.boolean(),
    }),
  ),
  bins: z.array(z.looseObject({ ppsBinId: z.string(), state: z.string(), requests: z.array(z.unknown()) })),
  racks: z.array(z.object({ msu: z.string(), locations: z.array(z.string()), presentedAt: z.string() })),
  pickQueue: z.array(z.unknown()),
  heldBack: z.array(z.unknown()),
  puts: z.array(z.unknown()),
  devices: z.unknown(),
});

/** What a pick or put move answers: the request after it, as GET service-request shows it. */
const requestAfter = { description: "the request after the move", schema: srView };

type Common = Omit<RouteSpec, "method" | "path" | "summary" | "responses" | "tag" | "auth" | "roles"> & {
  /** Who may call it besides admins (docs/security.md#roles). */
  roles: Role[];
  /** The success answer; `{ok: true}` unless said. */
  answer?: { description: string; schema: z.ZodType };
};
const errors = {
  400: { description: "bad data; `errors` names the field" },
  404: { description: "unknown request, line, seat, bin or rack" },
  409: {
    description: "the move is not allowed now (state, mode, login, reservation)",
    codes: ["invalid_state", "wrong_mode", "not_logged_in"] as ErrorCode[],
  },
};

/** A POST (or PUT) of the station API: authenticated, answering 200 or the common errors. */
function writeRoute(app: Hono<AppEnv>, registry: RouteRegistry, method: "post" | "put" = "post") {
  return (path: string, summary: string, { answer, ...extra }: Common, handler: Handler) =>
    route(
      app,
      registry,
      {
        method,
        path,
        summary,
        tag: "station",
        auth: true,
        ...extra,
        responses: { 200: answer ?? { description: "done", schema: ok }, ...errors },
      },
      handler,
    );
}

/**
 * The station API (docs/architecture.md#interfaces): what the operator screen, the devices and the central system's robot
 * control call. Each action is one transaction with the same rules as every other entry point.
 */
export function stationRoutes(ops: Operations, state: () => unknown) {
  return (app: Hono<AppEnv>, registry: RouteRegistry) => {
    seatRoutes(app, registry, ops);
    workRoutes(app, registry, ops);
    binAndStockRoutes(app, registry, ops, state);
  };
}

/** Seats, mode and racks. */
function seatRoutes(app: Hono<AppEnv>, registry: RouteRegistry, ops: Operations): void {
  const post = writeRoute(app, registry);
  post(
    "/station/seats/:seat/login",
    "An operator logs in at a seat",
    { roles: rolesFor("seat_login"), body: loginSchema, examples: { login: EX.login } },
    async (c) => {
      const { user } = await readJson(c, loginSchema);
      ops.login(c.req.param("seat") as string, user);
      return c.json({ ok: true });
    },
  );
  post(
    "/station/seats/:seat/logout",
    "The operator at a seat logs out",
    { roles: rolesFor("seat_logout") },
    (c) => {
      ops.logout(c.req.param("seat") as string);
      return c.json({ ok: true });
    },
  );
  writeRoute(app, registry, "put")(
    "/station/mode",
    "Switch the station's mode",
    // the station's mode is the manager's: for admins
    { roles: rolesFor("set_mode"), body: stationModeSchema, examples: { mode: EX.mode } },
    async (c) => {
      ops.setMode((await readJson(c, stationModeSchema)).mode);
      return c.json({ ok: true });
    },
  );
  post(
    "/station/racks",
    "A rack (MSU face) is presented; pick requests with stock on it lock",
    { roles: rolesFor("rack_presented"), body: rackPresentedSchema, examples: { rack: EX.rack } },
    async (c) => {
      ops.rackPresented(await readJson(c, rackPresentedSchema));
      return c.json({ ok: true });
    },
  );
  route(
    app,
    registry,
    {
      method: "delete",
      path: "/station/racks/:msu",
      tag: "station",
      summary: "The rack left the station",
      auth: true,
      // the rack left: robot control, like rack presented
      roles: rolesFor("rack_gone"),
      responses: { 200: { description: "done", schema: ok }, ...errors },
    },
    (c) => {
      ops.rackGone(c.req.param("msu") as string);
      return c.json({ ok: true });
    },
  );
}

/** The operator's picks and puts. */
function workRoutes(app: Hono<AppEnv>, registry: RouteRegistry, ops: Operations): void {
  const post = writeRoute(app, registry);
  post(
    "/station/picks",
    "One pick transaction (item from slot into the order's bin)",
    {
      roles: rolesFor("pick"),
      body: pickTransactionSchema,
      examples: { pick: EX.pick },
      answer: requestAfter,
    },
    async (c) => c.json(ops.viewed.pick(await readJson(c, pickTransactionSchema))),
  );
  post(
    "/station/picks/exceptions",
    "A pick exception: missing, damaged or unscannable items",
    {
      roles: rolesFor("pick_exception"),
      body: pickExceptionSchema,
      examples: { exception: EX.pickException },
      answer: requestAfter,
    },
    async (c) => c.json(ops.viewed.pickException(await readJson(c, pickExceptionSchema))),
  );
  post(
    "/station/puts",
    "One put transaction (item from tote into a slot)",
    { roles: rolesFor("put"), body: putTransactionSchema, examples: { put: EX.put }, answer: requestAfter },
    async (c) => c.json(ops.viewed.put(await readJson(c, putTransactionSchema))),
  );
  post(
    "/station/puts/exceptions",
    "A put exception (front/back states of the spec)",
    {
      roles: rolesFor("put_exception"),
      body: putExceptionSchema,
      examples: { exception: EX.putException },
      answer: requestAfter,
    },
    async (c) => c.json(ops.viewed.putException(await readJson(c, putExceptionSchema))),
  );
  post(
    "/station/puts/:externalServiceRequestId/release",
    "The tote (or roll cage) of a complete put is released",
    { roles: rolesFor("release_put"), answer: requestAfter },
    (c) => c.json(ops.viewed.release(c.req.param("externalServiceRequestId") as string)),
  );
  post(
    "/station/puts/:externalServiceRequestId/put-back-stage",
    "Put back staging at the station: created → staged into a bin",
    {
      roles: rolesFor("put_back_stage"),
      body: putBackStageSchema,
      examples: { stage: EX.putBackStage },
      answer: requestAfter,
    },
    async (c) =>
      c.json(
        ops.putBackStage(
          c.req.param("externalServiceRequestId") as string,
          (await readJson(c, putBackStageSchema)).ppsBinId,
        ),
      ),
  );
}

/** Bins, stock and the station's state. */
function binAndStockRoutes(
  app: Hono<AppEnv>,
  registry: RouteRegistry,
  ops: Operations,
  state: () => unknown,
): void {
  const post = writeRoute(app, registry);
  post(
    "/station/bins/:ppsBinId/empty",
    "The operator emptied a bin",
    { roles: rolesFor("empty_bin") },
    (c) => {
      ops.binEmptied(c.req.param("ppsBinId") as string);
      return c.json({ ok: true });
    },
  );
  writeRoute(app, registry, "put")(
    "/station/stock",
    "Set the on-hand quantity of an item at a slot (inventory adjustment)",
    // a stock correction: for admins
    { roles: rolesFor("correct_stock"), body: stockAdjustSchema, examples: { stock: EX.stock } },
    async (c) => {
      ops.setStock(await readJson(c, stockAdjustSchema));
      return c.json({ ok: true });
    },
  );
  route(
    app,
    registry,
    {
      method: "get",
      path: "/station/state",
      tag: "station",
      summary: "Mode, seats, bins, racks, the pick queue in work order, puts",
      auth: true,
      roles: rolesFor("read_station"),
      responses: {
        200: {
          description: "the station",
          schema: stationView,
        },
      },
    },
    (c) => c.json(state()),
  );
}
