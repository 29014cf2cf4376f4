import fc from "fast-check";
import type { RouteSpec } from "../../../src/http/route-spec.js";
import { type Body, contentType, refusedJsonBody, serialized } from "./bodies.js";
import { hostileString, hostileValue, rawUrlPieces, urlComponent } from "./hostile.js";

/** One generated request: what is sent, and the families it was built from (for the summary). */
export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
  family: string;
}

export interface FuzzContext {
  bodyLimitBytes: number;
  /** Every short value stored in the station's database: what a parameter must avoid to name nothing. */
  existing: Set<string>;
  /** Stored values a path parameter of this name can point at (a seat, a request id …). */
  stored(param: string): string[];
  /** The header that authenticates: a bearer token, or the client's Basic credential for the token endpoint. */
  authorization(spec: RouteSpec): string | undefined;
}

/** Does a changing route take the request on its path alone (no body, no parameter to point elsewhere)? */
export const takesAnything = (spec: RouteSpec) =>
  (spec.commits ?? spec.method !== "get") && !spec.body && !spec.path.includes(":");

const commits = (spec: RouteSpec) => spec.commits ?? spec.method !== "get";

/** Forms a value may take on the way into a route, so "not a stored value" holds after decoding too. */
function forms(s: string): string[] {
  let decoded = s;
  try {
    decoded = decodeURIComponent(s);
  } catch {}
  const out = [s, decoded, Buffer.from(decoded, "utf8").toString("utf8")].flatMap((x) => [
    x,
    x.trim().toLowerCase(),
  ]);
  const n = Number(decoded);
  if (decoded.trim() !== "" && Number.isFinite(n)) out.push(String(n));
  return out;
}

/** A path parameter: a stored value (only where the body is refused anyway) or hostile text naming nothing. */
function param(ctx: FuzzContext, name: string, real: boolean): fc.Arbitrary<string> {
  const missing = fc
    .tuple(fc.oneof(hostileString, rawUrlPieces), fc.boolean())
    .filter(([s]) => !forms(s).some((f) => ctx.existing.has(f)))
    .map(([s, raw]) => (s === "" ? "%20" : urlComponent(s, raw)));
  const stored = ctx.stored(name);
  if (!real || stored.length === 0) return missing;
  return fc.oneof(
    missing,
    fc.constantFrom(...stored).map((s) => urlComponent(s, false)),
  );
}

function query(spec: RouteSpec): fc.Arbitrary<string> {
  const names = [...Object.keys(spec.query?.shape ?? {}), "limit", "after", "type", "__proto__"];
  const pair = fc
    .tuple(
      fc.oneof(fc.constantFrom(...names), hostileString),
      fc.oneof(
        hostileString,
        rawUrlPieces,
        hostileValue.map((v) => JSON.stringify(v) ?? ""),
      ),
      fc.boolean(),
    )
    .map(([k, v, raw]) => `${urlComponent(k, raw)}=${urlComponent(v, raw)}`);
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant("") },
    { weight: 3, arbitrary: fc.array(pair, { minLength: 1, maxLength: 4 }).map((p) => `?${p.join("&")}`) },
    { weight: 1, arbitrary: rawUrlPieces.map((p) => `?${p}`) },
  );
}

/** Header values a client can send at all: printable Latin-1 without DEL, hostile within that. */
const headerText = fc.string({
  unit: fc
    .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff }))
    .map((c) => String.fromCharCode(c)),
  maxLength: 80,
});

function headers(spec: RouteSpec): fc.Arbitrary<Record<string, string>> {
  const produces = spec.produces ?? "application/json";
  const refusing = fc.constantFrom("text/html;q=0", "image/png", ",,,;", "*/*;q=0", "application/xml");
  // A route that takes any request writes on every accepted one (a report file each): most of its
  // requests carry an Accept it refuses, so that "refused, nothing changed" is what is mostly tried.
  const refuseWeight = takesAnything(spec) ? 400 : 1;
  const accept = fc.oneof(
    { weight: 12, arbitrary: fc.constant(undefined) },
    { weight: 6, arbitrary: fc.constantFrom("*/*", produces, `${produces};q=0.5, */*;q=0`, "application/*") },
    { weight: 1, arbitrary: headerText },
    { weight: refuseWeight, arbitrary: refusing },
  );
  return fc.record({ accept, requestId: fc.option(headerText) }).map(({ accept: a, requestId }) => ({
    ...(a === undefined ? {} : { Accept: a }),
    ...(requestId === null ? {} : { "X-Request-Id": requestId }),
  }));
}

/** A body for a route that reads none, or whose every request is refused anyway: anything goes. */
function anyBody(limit: number): fc.Arbitrary<Body | undefined> {
  const some = fc
    .tuple(serialized(hostileValue, limit), contentType)
    .map(([[family, bytes], type]): Body => ({ bytes, contentType: type, family }));
  return fc.option(some, { freq: 3 }).map((b) => b ?? undefined);
}

/** Form bodies for the token endpoint: its examples' fields with hostile values, or raw text. */
function formBody(): fc.Arbitrary<Body> {
  const fields = fc.dictionary(
    fc.constantFrom("grant_type", "username", "password", "refresh_token", "client_id", "scope"),
    fc.oneof(hostileString, fc.constantFrom("password", "refresh_token", "admin")),
  );
  const text = fc.oneof(
    fields.map((f) =>
      Object.entries(f)
        .map(([k, v]) => `${k}=${urlComponent(v, false)}`)
        .join("&"),
    ),
    fc.tuple(fields, rawUrlPieces).map(([f, p]) => `${new URLSearchParams(f).toString()}&password=${p}`),
    hostileString,
  );
  const type = fc.oneof(fc.constant("application/x-www-form-urlencoded"), contentType);
  return fc
    .tuple(text, type)
    .map(([t, c]) => ({ bytes: Buffer.from(t, "utf8"), contentType: c, family: "form" }));
}

function bodyFor(spec: RouteSpec, ctx: FuzzContext, realParams: boolean): fc.Arbitrary<Body | undefined> {
  if (spec.tokenEndpoint) return formBody();
  if (spec.method === "get") return fc.constant(undefined); // fetch sends no body with a GET
  if (!spec.body) return anyBody(ctx.bodyLimitBytes);
  // a changing route must refuse the body, unless its path names nothing stored (then a 404 refuses it)
  const mustRefuse = commits(spec) && (realParams || !spec.path.includes(":"));
  return mustRefuse ? refused(spec, ctx) : fc.oneof(anyBody(ctx.bodyLimitBytes), refused(spec, ctx));
}

function refused(spec: RouteSpec, ctx: FuzzContext): fc.Arbitrary<Body | undefined> {
  const examples = Object.values(spec.examples ?? {});
  return refusedJsonBody(
    spec.body as NonNullable<RouteSpec["body"]>,
    spec.bodyOptional ?? false,
    examples,
    ctx.bodyLimitBytes,
  );
}

/**
 * Hostile requests for one route. A route that changes data gets a body it must refuse, or path
 * parameters naming nothing stored; reads get anything.
 */
export function requestsFor(spec: RouteSpec, ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const names = [...spec.path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] as string);
  // a stored parameter only where the body is refused anyway, or the route only reads
  const real = !commits(spec) || Boolean(spec.body);
  return fc.boolean().chain((useReal) => {
    const realParams = real && useReal;
    return fc
      .record({
        params: fc.tuple(...names.map((n) => param(ctx, n, realParams))),
        query: query(spec),
        headers: headers(spec),
        body: bodyFor(spec, ctx, realParams),
      })
      .map(({ params, query: q, headers: h, body }) => {
        let i = 0;
        const path = spec.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, () => params[i++] as string);
        const auth = ctx.authorization(spec);
        const sendsBody = body && spec.method !== "get";
        return {
          method: spec.method.toUpperCase(),
          url: `${path}${q}`,
          headers: {
            ...h,
            ...(auth ? { Authorization: auth } : {}),
            ...(sendsBody && body.contentType !== undefined ? { "Content-Type": body.contentType } : {}),
          },
          ...(sendsBody ? { body: body.bytes } : {}),
          family: sendsBody ? body.family : "no body",
        };
      });
  });
}
