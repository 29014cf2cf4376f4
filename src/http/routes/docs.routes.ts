import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import type { Context, Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../context.js";
import { buildOpenApi, type RouteRegistry } from "../openapi.js";
import { route } from "../route.js";
import { SLICE_BYTES, slicedBody } from "../sliced-body.js";

/**
 * The API reference: /openapi.json, generated from the routes' own specs, and /docs, Swagger UI over
 * it. Swagger UI's files come from the swagger-ui-dist package and are served by the agent itself
 * (the station LAN has no internet: no CDN); the page and its start script live in
 * src/http/docs-page/, served from there by both the built and the source agent, like the screen's.
 * Unauthenticated: they carry no station data (the page asks for a token to try a call).
 */
const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
const DOCS_PAGE_DIR = fileURLToPath(new URL("../../../src/http/docs-page/", import.meta.url));

const JS = "text/javascript; charset=utf-8";
/** Each file under /docs/assets/, the folder it is read from and its type. */
const ASSETS: Array<{ name: string; dir: string; type: string }> = [
  { name: "swagger-ui.css", dir: SWAGGER_UI_DIR, type: "text/css; charset=utf-8" },
  { name: "swagger-ui-bundle.js", dir: SWAGGER_UI_DIR, type: JS },
  { name: "swagger-ui-standalone-preset.js", dir: SWAGGER_UI_DIR, type: JS },
  { name: "favicon-32x32.png", dir: SWAGGER_UI_DIR, type: "image/png" },
  { name: "docs.js", dir: DOCS_PAGE_DIR, type: JS },
];

/**
 * Only what the page loads from the agent. Swagger UI sets element styles from script (allowed under
 * `style-src 'self'`), and its style sheet draws icons as `data:` images.
 */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

interface Cached {
  body: Buffer;
  gzip: Buffer | undefined;
  etag: string;
}

/** A document's bytes with their ETag and, when worth it, a gzipped copy. */
function cachedBody(body: Buffer, compress: boolean): Cached {
  const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`;
  return { body, gzip: compress ? gzipSync(body) : undefined, etag };
}

/** Read once, on first request: the bundle is 1.7 MB, so it is also kept gzipped and answered 304 when unchanged. */
function cachedFile(path: string, compress: boolean): () => Cached {
  let cached: Cached | undefined;
  return () => {
    cached ??= cachedBody(readFileSync(path), compress);
    return cached;
  };
}

/**
 * Answers a cached document: 304 when the client has it, else the same bytes every time (a Buffer is
 * written as it is by the Node adaptor: no copy per answer, docs/limits.md#http-the-station-api); a
 * large one in slices, one a turn (sliced-body.ts).
 */
function sendCached(c: Context<AppEnv>, f: Cached, type: string): Response {
  c.header("ETag", f.etag);
  c.header("Cache-Control", "no-cache");
  c.header("Vary", "Accept-Encoding");
  c.header("X-Content-Type-Options", "nosniff");
  if (c.req.header("if-none-match") === f.etag) return c.body(null, 304);
  c.header("Content-Type", type);
  const gzip = f.gzip && /\bgzip\b/.test(c.req.header("accept-encoding") ?? "");
  if (gzip) c.header("Content-Encoding", "gzip");
  const bytes = (gzip ? f.gzip : f.body) as Uint8Array<ArrayBuffer>;
  if (bytes.length <= SLICE_BYTES) return c.body(bytes);
  c.header("Content-Length", String(bytes.length));
  return c.body(slicedBody(bytes));
}

function assetRoutes(app: Hono<AppEnv>, registry: RouteRegistry): void {
  for (const { name, dir, type } of ASSETS) {
    const file = cachedFile(join(dir, name), !type.startsWith("image/"));
    route(
      app,
      registry,
      {
        method: "get",
        path: `/docs/assets/${name}`,
        tag: "ops",
        summary: `API reference page: ${name}`,
        auth: false,
        produces: type.split(";")[0] as string,
        responses: { 200: { description: name }, 304: { description: "unchanged since the ETag sent" } },
      },
      (c) => sendCached(c, file(), type),
    );
  }
}

/** Mounted by the ops group (ops.routes.ts): the document is built once, after every route is in. */
export function docsRoutes(app: Hono<AppEnv>, registry: RouteRegistry, version: string): void {
  // serialised once, after every route is in: the same bytes for every request
  let doc: Cached | undefined;
  route(
    app,
    registry,
    {
      method: "get",
      path: "/openapi.json",
      tag: "ops",
      summary: "OpenAPI 3.0 description, generated from the schemas that validate requests",
      auth: false,
      responses: {
        200: {
          description: "the document",
          schema: z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) }),
        },
      },
    },
    (c) => {
      doc ??= cachedBody(Buffer.from(JSON.stringify(buildOpenApi(registry, version))), true);
      return sendCached(c, doc, "application/json");
    },
  );
  const page = cachedFile(join(DOCS_PAGE_DIR, "index.html"), false);
  route(
    app,
    registry,
    {
      method: "get",
      path: "/docs",
      tag: "ops",
      summary: "The API reference: Swagger UI over /openapi.json, with Authorize and Try it out",
      auth: false,
      produces: "text/html",
      responses: { 200: { description: "HTML" } },
    },
    (c) => {
      c.header("Content-Security-Policy", CSP);
      c.header("Cache-Control", "no-cache");
      c.header("Referrer-Policy", "no-referrer");
      return c.html(page().body.toString("utf8"));
    },
  );
  assetRoutes(app, registry);
}
