import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { AppError } from "../domain/errors.js";
import type { AuthService } from "../services/auth/auth.service.js";
import type { AppEnv } from "./context.js";

/** A screen session as the sessions service hands it out (services/screen-sessions.service.ts). */
export interface ScreenSessionGrant {
  seat: string;
  token: string;
  maxAgeSeconds?: number;
}

export interface ScreenSessionPort {
  openWithKey(seat: string, key: string): ScreenSessionGrant | null;
  signIn(seat: string, username: string, password: string, address?: string): Promise<ScreenSessionGrant>;
  check(seat: string, token: string): ScreenSessionGrant | null;
  end(token: string, address?: string): void;
}

/** Who is asking: an API user (bearer token, any seat) or the seat's own screen session. */
export type ScreenCaller = { kind: "api" } | { kind: "screen"; token: string };

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
 * session of another seat is a 403 `forbidden`; nothing at all is a 401. Screen sessions are accepted
 * nowhere else: every other route takes only bearer tokens.
 */
export function screenGuard(auth: AuthService, sessions: ScreenSessionPort) {
  return function authorizeScreen(c: Context<AppEnv>, seat: string): ScreenCaller {
    const bearer = c.req.header("authorization");
    if (bearer !== undefined) {
      c.set("user", auth.authenticate(bearer));
      return { kind: "api" };
    }
    const cookies = getCookie(c);
    const own = cookies[screenCookie(seat)];
    const grant = own === undefined ? null : sessions.check(seat, own);
    if (grant) {
      setScreenCookie(c, grant);
      return { kind: "screen", token: grant.token };
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
  };
}

export type ScreenGuard = ReturnType<typeof screenGuard>;
