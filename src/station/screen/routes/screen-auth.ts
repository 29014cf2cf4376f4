import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { AppError } from "../../../domain/errors.js";
import { rolesFor } from "../../../domain/permissions.js";
import { forbiddenError, type Role, roleAllows } from "../../../domain/roles.js";
import { clientAddress } from "../../../http/client-address.js";
import type { AppEnv } from "../../../http/context.js";
import type { AuthService, AuthUser } from "../../../services/auth/auth.service.js";
import { DISPLAY_ROLE } from "../screen-roles.js";

/**
 * Who may use the operator screen (docs/security.md#roles): its routes declare these, and a sign-in on the screen
 * is refused to other roles. Admins may too, as everywhere.
 */
export const SCREEN_ROLES: Role[] = rolesFor("use_screen");

// the role a seat's key session acts with: its owner is screen-roles.ts
export { DISPLAY_ROLE } from "../screen-roles.js";

/** A screen session as the sessions service hands it out (services/auth/screen-sessions.ts). */
export interface ScreenSessionGrant {
  seat: string;
  token: string;
  maxAgeSeconds?: number;
  /** The user who signed in; none for the station box's own display (its seat's key). */
  user?: AuthUser;
}

export interface ScreenSessionPort {
  openWithKey(seat: string, key: string, address?: string): Promise<ScreenSessionGrant | null>;
  signIn(
    seat: string,
    username: string,
    password: string,
    roles: readonly Role[],
    address?: string,
  ): Promise<ScreenSessionGrant>;
  check(seat: string, token: string): ScreenSessionGrant | null;
  end(token: string, address?: string): void;
}

/**
 * Who is asking: an API user (bearer token, any seat) or the seat's own screen session, with the user
 * behind it (none for a key session).
 */
export type ScreenCaller =
  | { kind: "api"; user: AuthUser; authorization: string }
  | { kind: "screen"; token: string; user: AuthUser | undefined };

const PREFIX = "pps_screen_";
/** One cookie per seat (seat ids are `[A-Za-z0-9_-]`), so one browser can hold screens of two seats. */
export const screenCookie = (seat: string) => `${PREFIX}${seat}`;

/**
 * `HttpOnly; SameSite=Strict; Path=/`: no script reads it and no other site's page sends it. Over HTTPS
 * (`http.tls`) also `Secure`, so the browser never sends it over plain HTTP.
 */
export function setScreenCookie(c: Context<AppEnv>, grant: ScreenSessionGrant): void {
  if (grant.maxAgeSeconds === undefined) return;
  setCookie(c, screenCookie(grant.seat), grant.token, {
    httpOnly: true,
    sameSite: "Strict",
    secure: new URL(c.req.url).protocol === "https:",
    path: "/",
    maxAge: grant.maxAgeSeconds,
  });
}

export function clearScreenCookie(c: Context<AppEnv>, seat: string): void {
  deleteCookie(c, screenCookie(seat), { path: "/" });
}

/**
 * Authenticates a call on a seat's screen routes: `Authorization: Bearer` as everywhere (API users may
 * act at any seat), else the seat's screen session cookie (renewed in the answer when due). A screen
 * session of another seat is a 403 `forbidden`; nothing at all is a 401. A user whose role is not among
 * the route's `roles` is a 403 `forbidden`, by bearer token or by a session they signed in to. Screen
 * sessions are accepted nowhere else: every other route takes only bearer tokens.
 */
export function screenGuard(auth: AuthService, sessions: ScreenSessionPort): ScreenGuard {
  function allowed(
    c: Context<AppEnv>,
    user: AuthUser | undefined,
    roles: readonly Role[],
    tap?: string,
  ): void {
    const role = user?.role ?? DISPLAY_ROLE;
    if (roleAllows(roles, role)) return;
    auth.access.onForbidden({
      username: user?.username,
      role,
      via: "screen",
      what: tap === undefined ? `${c.req.method} ${c.req.path}` : `screen action ${tap}`,
      needed: roles,
      address: clientAddress(c),
    });
    const e = forbiddenError(role, roles);
    // `details.tap`: the page says the tap is not this user's, rather than asking to sign in again
    throw tap === undefined ? e : new AppError("forbidden", e.message, e.errors, { tap });
  }
  function authorizeScreen(c: Context<AppEnv>, seat: string, roles: readonly Role[]): ScreenCaller {
    const bearer = c.req.header("authorization");
    if (bearer !== undefined) {
      const user = auth.authenticate(bearer);
      c.set("user", user);
      allowed(c, user, roles);
      return { kind: "api", user, authorization: bearer };
    }
    const cookies = getCookie(c);
    const own = cookies[screenCookie(seat)];
    const grant = own === undefined ? null : sessions.check(seat, own);
    if (grant) {
      if (grant.user) allowed(c, grant.user, roles);
      setScreenCookie(c, grant);
      return { kind: "screen", token: grant.token, user: grant.user };
    }
    for (const [name, token] of Object.entries(cookies)) {
      const other = name.startsWith(PREFIX) ? name.slice(PREFIX.length) : null;
      if (other !== null && other !== seat && sessions.check(other, token))
        throw new AppError("forbidden", `this screen session is for seat ${other}`, [
          { path: "seat", message: `only seat ${other}` },
        ]);
    }
    throw new AppError("unauthorized", "sign in to this screen, or send a bearer token", [
      { path: "Authorization", message: "expected 'Bearer <access_token>' or the seat's screen session" },
    ]);
  }
  const stillValid = (authorization: string): boolean => {
    try {
      auth.authenticate(authorization);
      return true;
    } catch {
      return false;
    }
  };
  const permit = (c: Context<AppEnv>, caller: ScreenCaller, roles: readonly Role[], tap: string): void =>
    allowed(c, caller.user, roles, tap);
  return Object.assign(authorizeScreen, { stillValid, permit });
}

/** Authenticates a screen call; `stillValid` re-checks a bearer token later (an open event stream). */
export interface ScreenGuard {
  (c: Context<AppEnv>, seat: string, roles: readonly Role[]): ScreenCaller;
  stillValid(authorization: string): boolean;
  /**
   * Refuses (403 `forbidden` with `details.tap`, recorded as every role refusal) a caller whose role may
   * not make the tap `tap`: the user's role, or the display's for a key session.
   */
  permit(c: Context<AppEnv>, caller: ScreenCaller, roles: readonly Role[], tap: string): void;
}
