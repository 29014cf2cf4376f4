import type { Context, Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import { AppError } from "../../../domain/errors.js";
import { type Operation, rolesFor } from "../../../domain/permissions.js";
import { pauseSeatSchema } from "../../../domain/seat-control.schema.js";
import { type SecurityEventInput, supervisorAuthorisedEvent } from "../../../domain/security-event.js";
import {
  type SupervisorCredential,
  supervisorCredentialSchema,
} from "../../../domain/supervisor-credential.js";
import { readJson } from "../../../http/body.js";
import { clientAddress } from "../../../http/client-address.js";
import type { AppEnv } from "../../../http/context.js";
import type { RouteRegistry } from "../../../http/openapi.js";
import { route } from "../../../http/route.js";
import { SCREEN_ACTION_EXAMPLES } from "../../../http/routes/request-examples.js";
import type { LiveSession } from "../../../services/auth/auth.service.js";
import type { Outcome } from "../../engine.js";
import { outcomeSchema } from "../../routes/outcome.schema.js";
import { SCREEN_EXCEPTIONS } from "../../scan-codes.js";
import { PROBLEM_KINDS } from "../../seat.problem.js";
import { SCREEN_ACTION_OPERATION } from "../actions.js";
import { LANGUAGES } from "../state/types.js";
import { SCREEN_ROLES, type ScreenCaller, type ScreenGuard, type ScreenSessionPort } from "./screen-auth.js";

/**
 * The operator screen's data (docs/station.md#operator-screen): a seat's screen state as JSON, the same object
 * pushed live as Server-Sent Events, and the screen's actions. Authenticated by a bearer token or the
 * seat's screen session (screen-auth.ts).
 */
export interface ScreenPort {
  seats: readonly string[];
  state(seat: string): unknown;
  /** `listener` gets the state's JSON at once and on every change until the returned function is called. */
  subscribe(seat: string, listener: (json: string) => void): () => void;
  /** `by`: the user signed in on the screen, or the supervisor who authorised the tap (none for a key session). */
  act(seat: string, action: ScreenActionBody, by?: string | null): Outcome | Promise<Outcome>;
  /** A supervisor at the seat (docs/station.md#supervisor-at-the-seat); none: a credential is refused. */
  supervisor?: SupervisorPort;
}

/** Checks a supervisor's badge or PIN for one action, and records the action with both names. */
export interface SupervisorPort {
  /** The supervisor, if the credential is theirs and their role may perform `op` (else throws, throttled). */
  authorise(
    at: { seat: string; address: string | undefined },
    credential: SupervisorCredential,
    op: Operation,
  ): Promise<{ username: string }>;
  /** The operator logged in at the seat. */
  operator(seat: string): string | null;
  /** Records the authorised action in the security event log. */
  record(event: SecurityEventInput): void;
}

/** A page notices a lost agent when this is missed for long (screen.js waits 1.5 s). */
export const HEARTBEAT_MS = 700;
/** A long-lived stream re-checks its screen session this often (a revoked session ends the stream). */
const RECHECK_MS = 60_000;

const id = z.string().min(1).max(255);
/** The version of the screen state the tap was made on (the stale-tap rule); absent: no check. */
const version = z.number().int().min(0).optional();
/** A supervisor's badge or PIN: it authorises this one action (docs/station.md#supervisor-at-the-seat). */
const supervisor = supervisorCredentialSchema.optional();
const action = <T extends z.ZodRawShape>(shape: T) => z.object({ ...shape, version, supervisor }).strict();
const tapSchema = z.discriminatedUnion("type", [
  action({ type: z.literal("login"), user: z.string().min(1).max(128) }),
  action({ type: z.literal("logout") }),
  action({ type: z.literal("confirm") }),
  action({ type: z.literal("cancel") }),
  action({
    type: z.literal("exception"),
    code: z.enum(SCREEN_EXCEPTIONS),
  }),
  action({ type: z.literal("keyin"), quantity: z.number().int().min(1).max(1_000_000) }),
  action({ type: z.literal("mode"), mode: z.enum(["pick", "put", "audit"]) }),
  action({ type: z.literal("empty"), bin: id }),
  action({ type: z.literal("release"), bin: id }),
  action({ type: z.literal("reprint"), bin: id }),
  action({ type: z.literal("language"), lang: z.enum(LANGUAGES).nullable() }),
  action({ type: z.literal("scan"), barcode: z.string().min(1).max(4096) }),
  // the quantity is checked against the problem's `max` on the seat's screen (400 naming `quantity`)
  action({
    type: z.literal("problem"),
    kind: z.enum(PROBLEM_KINDS),
    quantity: z.number().optional(),
    confirmed: z.literal(true),
  }),
  action({ type: z.literal("skip_label"), bin: id }),
  action({ type: z.literal("supervisor"), bin: id.optional() }),
  action({ type: z.literal("capture"), value: z.string().min(1).max(64) }),
  action({ type: z.literal("undo") }),
  action({ type: z.literal("audit_begin") }),
  // a supervisor pauses or resumes the seat; the operator acknowledges a message (docs/station.md#pausing-a-seat)
  action({ type: z.literal("pause"), reason: pauseSeatSchema.shape.reason }),
  action({ type: z.literal("resume") }),
  action({ type: z.literal("acknowledge"), id: z.number().int().min(1) }),
  // the operator has read what a restart did to the seat's lit work (docs/station.md#after-a-restart)
  action({ type: z.literal("acknowledge_restart") }),
  // a supervisor puts the seat in or out of training, or starts it over (docs/station.md#training)
  action({ type: z.literal("training"), training: z.boolean() }),
  action({ type: z.literal("training_reset") }),
  // a unit put wrong after a confirm, corrected by a supervisor at the seat (docs/station.md#undo)
  action({ type: z.literal("correct_put"), slot: id }),
  action({ type: z.literal("wrong_bin"), bin: id }),
]);
export const screenActionSchema = z.discriminatedUnion("type", [
  ...tapSchema.options,
  // the seat's supervisor prompt is open for this tap (null: closed): a supervisor's badge scanned on
  // the seat's scanner authorises it (docs/station.md#supervisor-at-the-seat)
  // `seen`: the last answer to a scanned badge the page has seen (`supervisorScan.n`)
  action({
    type: z.literal("supervisor_prompt"),
    pending: tapSchema.nullable(),
    seen: z.number().int().min(0).optional(),
  }),
]);
export type ScreenActionBody = z.output<typeof screenActionSchema>;

export function seatOf(c: Context<AppEnv>, seats: readonly string[]): string {
  const seat = c.req.param("seat") ?? "";
  if (!seats.includes(seat))
    throw new AppError("not_found", `no seat '${seat}'`, [{ path: "seat", message: "unknown seat" }]);
  return seat;
}

/** The state's main members (station/screen/state/types.ts `ScreenState` has them all). */
const screenStateView = z.looseObject({
  seat: z.string(),
  mode: z.enum(["pick", "put", "audit"]),
  operator: z.string().nullable(),
  step: z.string(),
  task: z.unknown(),
  bins: z.array(z.unknown()),
  allowed: z.unknown(),
});

const AUTH = "bearer token, or the seat's screen session cookie";

/** Watches a signed-in user's stream: removing or changing the user ends it at once (live-sessions.ts). */
export type TrackSession = (s: LiveSession) => () => void;

type Deps = { port: ScreenPort; guard: ScreenGuard; sessions: ScreenSessionPort; track: TrackSession };

function stateRoute(app: Hono<AppEnv>, registry: RouteRegistry, { port, guard }: Deps): void {
  route(
    app,
    registry,
    {
      method: "get",
      path: "/station/seats/:seat/screen",
      tag: "screen",
      summary: `The seat's operator screen state (${AUTH})`,
      auth: false,
      screenSession: true,
      roles: SCREEN_ROLES,
      responses: {
        200: { description: "the screen state", schema: screenStateView },
        401: { description: "not signed in" },
        404: { description: "no such seat" },
      },
    },
    (c) => {
      const seat = seatOf(c, port.seats);
      guard(c, seat, SCREEN_ROLES);
      c.header("Cache-Control", "no-store");
      return c.json(port.state(seat) as object);
    },
  );
}

/** The state on every change; a ping keeps the page sure the agent is there (and re-checks the session). */
function eventsRoute(app: Hono<AppEnv>, registry: RouteRegistry, deps: Deps): void {
  const { port, guard } = deps;
  route(
    app,
    registry,
    {
      method: "get",
      path: "/station/seats/:seat/screen/events",
      tag: "screen",
      summary: `The screen state, live: event 'screen' on every change, 'ping' every ${HEARTBEAT_MS} ms (${AUTH})`,
      auth: false,
      produces: "text/event-stream",
      screenSession: true,
      roles: SCREEN_ROLES,
      responses: {
        200: { description: "text/event-stream: events `hello`, `screen` (the state as JSON), `ping`" },
        401: { description: "not signed in" },
        404: { description: "no such seat" },
      },
    },
    (c) => {
      const seat = seatOf(c, port.seats);
      const caller = guard(c, seat, SCREEN_ROLES);
      c.header("Cache-Control", "no-store");
      return streamSSE(c, async (stream) => {
        await stream.writeSSE({ event: "hello", data: seat, retry: 500 });
        const unsubscribe = port.subscribe(seat, (json) => {
          stream.writeSSE({ event: "screen", data: json }).catch(() => {});
        });
        stream.onAbort(unsubscribe);
        const revoked = { now: false };
        const untrack = watch(deps, seat, caller, () => {
          revoked.now = true;
          stream.close().catch(() => {});
        });
        let checked = Date.now();
        while (!stream.aborted && !stream.closed && !revoked.now) {
          await stream.sleep(HEARTBEAT_MS);
          if (caller.kind === "screen" && Date.now() - checked > RECHECK_MS) {
            if (!deps.sessions.check(seat, caller.token)) break;
            checked = Date.now();
          }
          // a bearer token is good for its lifetime, not the stream's: an expired one ends it
          if (caller.kind === "api" && !deps.guard.stillValid(caller.authorization)) break;
          if (revoked.now) break;
          await stream.writeSSE({ event: "ping", data: "" });
        }
        untrack();
        unsubscribe();
      });
    },
  );
}

/** A stream of a user (by bearer token or a session they signed in to) ends when the user is removed or changed. */
function watch(deps: Deps, seat: string, caller: ScreenCaller, end: () => void): () => void {
  const { user } = caller;
  if (!user) return () => {};
  const valid =
    caller.kind === "api"
      ? () => deps.guard.stillValid(caller.authorization)
      : () => deps.sessions.check(seat, caller.token) !== null;
  return deps.track({ ...user, userId: user.id, what: "screen_stream", valid, end });
}

function actionsRoute(app: Hono<AppEnv>, registry: RouteRegistry, { port, guard }: Deps): void {
  route(
    app,
    registry,
    {
      method: "post",
      path: "/station/seats/:seat/screen/actions",
      tag: "screen",
      summary: `A tap on the operator screen, through the station engine (${AUTH})`,
      auth: false,
      screenSession: true,
      roles: SCREEN_ROLES,
      body: screenActionSchema,
      examples: SCREEN_ACTION_EXAMPLES,
      responses: {
        200: { description: "done; the new state follows on the event stream", schema: outcomeSchema },
        401: { description: "not signed in" },
        403: {
          description:
            "a screen session of another seat, or a tap whose operation the caller's role may not perform (a mode switch is an admin's)",
        },
        404: { description: "no such seat" },
        400: { description: "a bad action (`errors[].path` names the field); nothing changed" },
        409: {
          description:
            "refused: `details.reason` says why (`scan_refused`), or the tap's `version` is older than the screen's (`stale_screen`); nothing changed",
          codes: ["scan_refused", "stale_screen"],
        },
      },
    },
    async (c) => {
      const seat = seatOf(c, port.seats);
      const caller = guard(c, seat, SCREEN_ROLES);
      const action = await readJson(c, screenActionSchema);
      const op = SCREEN_ACTION_OPERATION[action.type];
      const by = await supervised(c, port, seat, action, op);
      // a tap is held to the rule of the operation it performs, as that operation's route is; a
      // supervisor's credential stands in for the caller's role for this one action
      if (by === null) guard.permit(c, caller, rolesFor(op), action.type);
      const out = await port.act(seat, action, by?.supervisor ?? caller.user?.username ?? null);
      if (by !== null)
        port.supervisor?.record(
          supervisorAuthorisedEvent({
            ...by,
            seat,
            action: action.type,
            result: out.result,
            reason: out.reason,
            caller: caller.user?.username,
            address: clientAddress(c),
            params: out.params,
          }),
        );
      if (out.result === "refused")
        throw new AppError(
          "scan_refused",
          out.message ?? "refused",
          [{ path: "type", message: out.reason ?? "" }],
          { reason: out.reason, seat },
        );
      return c.json(out);
    },
  );
}

/**
 * The supervisor a screen action's credential names, with the seat's operator read before the action
 * runs; null when the action carries none. A wrong credential is refused (403, throttled).
 */
async function supervised(
  c: Context<AppEnv>,
  port: ScreenPort,
  seat: string,
  action: ScreenActionBody,
  op: Operation,
): Promise<{ supervisor: string; operator: string | null } | null> {
  if (action.supervisor === undefined) return null;
  const sup = port.supervisor;
  if (!sup)
    throw new AppError("forbidden", "no supervisor can be checked here", [
      { path: "supervisor", message: "not taken here" },
    ]);
  const user = await sup.authorise({ seat, address: clientAddress(c) }, action.supervisor, op);
  return { supervisor: user.username, operator: sup.operator(seat) };
}

export function screenRoutes(
  port: ScreenPort,
  guard: ScreenGuard,
  sessions: ScreenSessionPort,
  track: TrackSession,
) {
  return (app: Hono<AppEnv>, registry: RouteRegistry) => {
    const deps = { port, guard, sessions, track };
    stateRoute(app, registry, deps);
    eventsRoute(app, registry, deps);
    actionsRoute(app, registry, deps);
  };
}
