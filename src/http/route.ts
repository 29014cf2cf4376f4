import type { Context, Hono, MiddlewareHandler } from "hono";
import { AppError } from "../domain/errors.js";
import { forbiddenError, type Role, roleAllows } from "../domain/roles.js";
import { limitBody } from "./body.js";
import { clientAddress } from "./client-address.js";
import type { AppEnv } from "./context.js";
import type { RouteRegistry, RouteSpec } from "./openapi.js";

export type Handler = (c: Context<AppEnv>) => Response | Promise<Response>;

/** Does an Accept header admit this media type? (docs/interface.md: "The response content type follows Accept") */
export function accepts(header: string | undefined, type: string): boolean {
  if (!header) return true;
  const [major] = type.split("/");
  return header.split(",").some((part) => {
    const [range = "", ...params] = part.trim().toLowerCase().split(";");
    if (params.some((p) => /^\s*q=0(\.0*)?\s*$/.test(p))) return false;
    return range === "*/*" || range === type || range === `${major}/*`;
  });
}

/** After authentication: the caller's role must be one the route lists (docs/security.md#roles). */
function requireRole(spec: RouteSpec, roles: Role[], registry: RouteRegistry): MiddlewareHandler<AppEnv> {
  const what = `${spec.method.toUpperCase()} ${spec.path}`;
  return async function checkRole(c, next) {
    const user = c.get("user");
    if (!roleAllows(roles, user.role)) {
      const e = {
        username: user.username,
        role: user.role,
        via: "http" as const,
        what,
        needed: roles,
        address: clientAddress(c),
      };
      registry.onForbidden?.(e);
      throw forbiddenError(user.role, roles);
    }
    await next();
  };
}

/**
 * Registers a handler and its spec together, so the OpenAPI document, authentication, the 405
 * answers and the metrics' route label can never drift from what is served.
 */
export function route(
  app: Hono<AppEnv>,
  registry: RouteRegistry,
  spec: RouteSpec,
  ...handlers: [...MiddlewareHandler<AppEnv>[], Handler]
): void {
  if ((spec.auth || spec.screenSession) && !spec.roles?.length)
    throw new Error(`route ${spec.method.toUpperCase()} ${spec.path} authenticates but declares no roles`);
  registry.add(spec);
  const produces = spec.produces ?? "application/json";
  const tag: MiddlewareHandler<AppEnv> = async function tagRoute(c, next) {
    c.set("route", spec.path);
    await next();
  };
  // After authentication: an anonymous caller learns nothing about a protected route from a 406.
  const negotiate: MiddlewareHandler<AppEnv> = async function checkAccept(c, next) {
    if (!accepts(c.req.header("accept"), produces)) {
      throw new AppError("not_acceptable", `this endpoint answers ${produces}`, [
        { path: "Accept", message: `must admit ${produces}` },
      ]);
    }
    await next();
  };
  const guard = spec.auth ? registry.guard : undefined;
  if (spec.auth && !guard) throw new Error(`route ${spec.path} needs authentication but no guard is set`);
  const roleCheck = spec.auth ? [requireRole(spec, spec.roles, registry)] : [];
  // after the role check, before the body is read: a refused call costs nothing (user-rate.ts)
  if (spec.costly && (!spec.auth || !registry.costly))
    throw new Error(`route ${spec.path} is costly: it must authenticate, and the app must have a rate`);
  const rate = spec.costly && registry.costly ? [registry.costly] : [];
  if (spec.storesBody && (!spec.auth || !registry.stored))
    throw new Error(`route ${spec.path} stores bodies: it must authenticate, and the app must have a rate`);
  const stored = spec.storesBody && registry.stored ? [registry.stored] : [];
  // the route's own limit applies before anything else reads the body (body.ts)
  const limit = spec.bodyLimitBytes === undefined ? [] : [limitBody(spec.bodyLimitBytes)];
  const chain = [
    tag,
    ...limit,
    ...(guard ? [guard, ...roleCheck, ...rate, ...stored] : []),
    negotiate,
    ...handlers,
  ] as unknown as [MiddlewareHandler<AppEnv>];
  app.on(spec.method.toUpperCase(), spec.path, ...chain);
}
