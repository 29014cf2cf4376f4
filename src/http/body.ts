import type { IncomingMessage } from "node:http";
import type { Context, MiddlewareHandler } from "hono";
import type { z } from "zod";
import { AppError } from "../domain/errors.js";
import { parseJsonBody } from "../domain/json-body.js";
import { validate } from "../domain/validate.js";
import type { AppEnv } from "./context.js";

export { validate, zodFieldErrors } from "../domain/validate.js";

function isJsonType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const mime = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  return mime === "application/json" || mime.endsWith("+json");
}

/**
 * The body limit of the routes anyone may call with credentials in the body (the token endpoint, the
 * screen sign-in): a user name of 128 and a password of 256 characters, each percent-encoded at up to 9
 * bytes a character, and a refresh token fit well within it.
 */
export const CREDENTIALS_BODY_BYTES = 8 * 1024;

function tooLarge(limit: number): AppError {
  return new AppError("payload_too_large", `the body is larger than ${limit} bytes`, [
    { path: "(body)", message: `at most ${limit} bytes` },
  ]);
}

/**
 * Refuses a declared `Content-Length` over the limit before any handler runs (413), and records the
 * limit for `readBodyText`, which enforces it while reading bodies sent without a length (chunked).
 *
 * @example app.use("*", limitBody(1 << 20));
 */
export function limitBody(limit: number): MiddlewareHandler<AppEnv> {
  return async function bodyLimit(c, next) {
    c.set("bodyLimitBytes", limit);
    const declared = Number(c.req.header("content-length") ?? 0);
    if (declared > limit) throw tooLarge(limit);
    await next();
  };
}

/**
 * An answer sent before the request's body was read (413, 401, 415, 400 …) closes the connection:
 * the unread rest of the body would otherwise be taken for the next request, or the socket dropped
 * under a client that was told `keep-alive`. `Connection: close` makes Node end the socket once the
 * answer is flushed, and tells the client to send its next request on a new one. In-process
 * requests (`app.request()`) have no socket and are left alone.
 */
export function closeIfBodyUnread(c: Context<AppEnv>): void {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming || incoming.readableEnded) return;
  const { headers } = incoming;
  const declared = Number(headers["content-length"] ?? 0);
  if (declared > 0 || headers["transfer-encoding"] !== undefined) c.header("Connection", "close");
}

/** Reads Node's request stream into text, counting bytes against the limit as they arrive. */
function readIncoming(incoming: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        incoming.off("data", onData);
        incoming.resume(); // drain the rest so the answer can be written on this socket
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    incoming.on("data", onData);
    incoming.once("end", () => resolve(Buffer.concat(chunks, size).toString("utf8")));
    incoming.once("error", reject);
  });
}

/**
 * The request body as text, within the body limit (413 beyond it). On the Node server it reads the
 * `IncomingMessage` directly: going through `c.req.text()` there makes `@hono/node-server` build a
 * WHATWG Request with web streams for every body, which measured ~10 % of a pick create's CPU
 * (docs/architecture.md#performance-targets). In-process requests (`app.request()`) have no
 * `incoming` and use the standard Request. Read once: the text is kept for whoever asks again.
 */
export async function readBodyText(c: Context<AppEnv>): Promise<string> {
  const read = c.get("bodyText");
  if (read !== undefined) return read;
  const limit = c.get("bodyLimitBytes") ?? Number.POSITIVE_INFINITY;
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  let text: string;
  if (incoming && !incoming.readableEnded && incoming.readable) text = await readIncoming(incoming, limit);
  else {
    text = await c.req.text();
    if (Buffer.byteLength(text) > limit) throw tooLarge(limit);
  }
  c.set("bodyText", text);
  return text;
}

function requireJsonType(c: Context<AppEnv>): void {
  if (isJsonType(c.req.header("content-type"))) return;
  throw new AppError("unsupported_media_type", "the body must be application/json", [
    {
      path: "Content-Type",
      message: `expected application/json, got ${c.req.header("content-type") ?? "none"}`,
    },
  ]);
}

/**
 * Reads a JSON body: 415 for another content type, 400 `body_too_deep` past the nesting limit and
 * `malformed_json` for text that does not parse (both before parsing completes), then schema validation
 * (400 naming the field). 413 beyond the body limit (`limitBody`).
 */
export async function readJson<S extends z.ZodType>(c: Context<AppEnv>, schema: S): Promise<z.output<S>> {
  requireJsonType(c);
  return validate(schema, parseJsonBody(await readBodyText(c)));
}

/** As `readJson`, for a body that may be left out: no body reads as `{}`. */
export async function readOptionalJson<S extends z.ZodType>(
  c: Context<AppEnv>,
  schema: S,
): Promise<z.output<S>> {
  const text = await readBodyText(c);
  if (text.trim() === "") return validate(schema, {});
  requireJsonType(c);
  return validate(schema, parseJsonBody(text));
}
