import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Hono } from "hono";
import { getCookie } from "hono/cookie";
import { z } from "zod";
import { AppError } from "../../../domain/errors.js";
import { CREDENTIALS_BODY_BYTES, readJson } from "../../../http/body.js";
import { clientAddress } from "../../../http/client-address.js";
import type { AppEnv } from "../../../http/context.js";
import type { RouteRegistry } from "../../../http/openapi.js";
import { route } from "../../../http/route.js";
import { screenCsp } from "../image-policy.js";
import { LANGUAGES } from "../state/types.js";
import { seatOf } from "./screen.routes.js";
import {
  clearScreenCookie,
  SCREEN_ROLES,
  type ScreenSessionPort,
  screenCookie,
  setScreenCookie,
} from "./screen-auth.js";

/**
 * The operator screen page (docs/station.md#operator-screen): static HTML, CSS and JavaScript served by the
 * agent itself (the station LAN has no internet: no CDN, no external fonts), the message catalogues,
 * the screen-key exchange and the sign-in. The files live in src/station/screen/page/ and are served
 * from there by both the built and the source agent (no build step): from dist/station/screen/routes/
 * too, so the path goes up to the package root and back into src/ (the package ships src/'s non-.ts
 * files, scripts/debian/stage.mjs).
 */
export const SCREEN_PAGE_DIR = fileURLToPath(
  new URL("../../../../src/station/screen/page/", import.meta.url),
);

/** The page's files (ES modules and one style sheet), each served at /screen/assets/<name>. */
const ASSETS = [
  "screen.css",
  "parts.css",
  "screen.js",
  "render.js",
  "task.js",
  "sound.js",
  "dom.js",
  "language.js",
  "capture.js",
  "training.js",
  "supervisor.js",
  "shift.css",
  "seat-control.js",
  "seat-control.css",
  "paths.js",
  "paths.css",
  "capture.css",
  "training.css",
  "numpad.js",
  "correction.js",
];

const signInBody = z
  .object({ username: z.string().min(1).max(128), password: z.string().min(1).max(1024) })
  .strict();

const pageQuery = z.object({
  key: z.string().optional().describe("The seat's screen key (as the station box's kiosk opens the page)."),
});
const seatView = z.object({ seat: z.string() });

interface PageOptions {
  seats: readonly string[];
  sessions: ScreenSessionPort;
  catalogue(lang: string): Readonly<Record<string, string>> | undefined;
  /** Origins item images may come from (`station.imageHosts`): the page's `img-src` (image-policy.ts). */
  imageHosts: readonly string[];
  dir?: string;
}

function assetRoutes(app: Hono<AppEnv>, registry: RouteRegistry, opts: PageOptions, dir: string): void {
  for (const name of ASSETS) {
    const type = name.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8";
    route(
      app,
      registry,
      {
        method: "get",
        path: `/screen/assets/${name}`,
        tag: "screen",
        summary: `Operator screen: ${name}`,
        auth: false,
        produces: type.split(";")[0] as string,
        responses: { 200: { description: name } },
      },
      (c) => {
        c.header("Content-Type", type);
        c.header("Cache-Control", "no-cache");
        return c.body(readFileSync(`${dir}${name}`, "utf8"));
      },
    );
  }
  route(
    app,
    registry,
    {
      method: "get",
      path: "/screen/assets/messages/:lang",
      tag: "screen",
      summary: `Operator screen: the message catalogue of a language (${LANGUAGES.join(", ")})`,
      auth: false,
      responses: {
        200: { description: "key → text", schema: z.record(z.string(), z.string()) },
        404: { description: "no such language" },
      },
    },
    (c) => {
      const cat = opts.catalogue(c.req.param("lang") ?? "");
      if (!cat)
        throw new AppError("not_found", "no such language", [
          { path: "lang", message: `one of ${LANGUAGES.join(", ")}` },
        ]);
      c.header("Cache-Control", "no-cache");
      return c.json(cat);
    },
  );
  // the language chooser lists these, each by its own name (docs/station.md#operator-screen, "Languages")
  route(
    app,
    registry,
    {
      method: "get",
      path: "/screen/assets/languages",
      tag: "screen",
      summary: "Operator screen: the languages it speaks, code → the language's name in that language",
      auth: false,
      responses: { 200: { description: "code → name", schema: z.record(z.string(), z.string()) } },
    },
    (c) => {
      c.header("Cache-Control", "no-cache");
      return c.json(
        Object.fromEntries(LANGUAGES.map((l) => [l, opts.catalogue(l)?.["ui.language_name"] ?? l])),
      );
    },
  );
}

/** The page; `?key=` (the seat's screen key) is exchanged for a session and leaves the address bar. */
function pageRoute(app: Hono<AppEnv>, registry: RouteRegistry, opts: PageOptions, dir: string): void {
  route(
    app,
    registry,
    {
      method: "get",
      path: "/screen/:seat",
      tag: "screen",
      summary: "The operator screen of a seat; `?key=` (the seat's screen key) opens a session and redirects",
      auth: false,
      produces: "text/html",
      query: pageQuery,
      responses: {
        200: { description: "the page" },
        303: { description: "key exchanged for a session (or refused): to the page without `?key=`" },
        404: { description: "no such seat" },
        429: {
          description:
            "too many wrong screen keys from this address (docs/security.md#login-policy); `Retry-After` gives the seconds to wait",
          codes: ["too_many_attempts"],
        },
      },
    },
    async (c) => {
      const seat = seatOf(c, opts.seats);
      const key = c.req.query("key");
      if (key !== undefined) {
        const grant = await opts.sessions.openWithKey(seat, key, clientAddress(c));
        if (grant) setScreenCookie(c, grant);
        return c.redirect(grant ? `/screen/${seat}` : `/screen/${seat}#key-refused`, 303);
      }
      c.header("Content-Security-Policy", screenCsp(opts.imageHosts));
      c.header("Cache-Control", "no-store");
      c.header("Referrer-Policy", "no-referrer");
      return c.html(readFileSync(`${dir}index.html`, "utf8"));
    },
  );
}

function sessionRoutes(app: Hono<AppEnv>, registry: RouteRegistry, opts: PageOptions): void {
  route(
    app,
    registry,
    {
      method: "post",
      path: "/screen/:seat/session",
      tag: "screen",
      summary: "Sign in to a seat's screen with an API user's name and password (sets the session cookie)",
      auth: false,
      commits: false,
      bodyLimitBytes: CREDENTIALS_BODY_BYTES,
      body: signInBody,
      examples: { signIn: { username: "alice", password: "alice-password" } },
      responses: {
        200: { description: "signed in", schema: seatView },
        401: { description: "wrong user name or password", codes: ["invalid_credentials"] },
        403: { description: "the user's role may not use the operator screen (docs/security.md#roles)" },
        404: { description: "no such seat" },
        429: {
          description:
            "too many failed logins for this user name from this address, or from this address (docs/security.md#login-policy); `Retry-After` gives the seconds to wait",
          codes: ["too_many_attempts"],
        },
      },
    },
    async (c) => {
      const seat = seatOf(c, opts.seats);
      const b = await readJson(c, signInBody);
      setScreenCookie(
        c,
        await opts.sessions.signIn(seat, b.username, b.password, SCREEN_ROLES, clientAddress(c)),
      );
      c.header("Cache-Control", "no-store");
      return c.json({ seat });
    },
  );
  route(
    app,
    registry,
    {
      method: "delete",
      path: "/screen/:seat/session",
      tag: "screen",
      summary: "Sign out of a seat's screen (ends the session)",
      auth: false,
      commits: false,
      responses: {
        200: { description: "signed out", schema: seatView },
        404: { description: "no such seat" },
      },
    },
    (c) => {
      const seat = seatOf(c, opts.seats);
      const token = getCookie(c, screenCookie(seat));
      if (token) opts.sessions.end(token, clientAddress(c));
      clearScreenCookie(c, seat);
      return c.json({ seat });
    },
  );
}

export function screenPageRoutes(opts: PageOptions) {
  const dir = opts.dir ?? SCREEN_PAGE_DIR;
  return (app: Hono<AppEnv>, registry: RouteRegistry) => {
    assetRoutes(app, registry, opts, dir);
    pageRoute(app, registry, opts, dir);
    sessionRoutes(app, registry, opts);
  };
}
