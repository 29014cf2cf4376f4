import type { z } from "zod";
import { rolesWithAdmin } from "../domain/roles.js";
import { errorCodes, errorResponse } from "./openapi.errors.js";
import type { JsonSchema, SchemaComponents } from "./openapi.schemas.js";
import type { RouteSpec } from "./route-spec.js";

/** One OpenAPI Operation Object from a route's spec (openapi.ts owns the document around it). */

const JSON_TYPE = "application/json";

/** What a path parameter is, by its name; the same names mean the same thing on every route. */
const PATH_PARAMETERS: Record<string, string> = {
  seat: "A seat of the station file (e.g. `front`).",
  externalServiceRequestId: "The client's id of the service request (`externalServiceRequestId`).",
  audit_id: "The audit's id, as the create answered it.",
  ppsBinId: "A bin of the station file.",
  msu: "The rack (MSU face) id.",
  id: "The report id, as the generate call answered it.",
  lang: "A language of the screen's message catalogues (`en`, `de`, `pl`, `cs`, `nl`, `fr`, `es`, `tr`).",
};

/** `getStationSeatsBySeatLogin`-style ids: unique per method and path, stable across versions. */
export function operationId(r: RouteSpec): string {
  const words = r.path
    .split("/")
    .filter(Boolean)
    .flatMap((seg) => (seg.startsWith(":") ? ["by", ...seg.slice(1).split("_")] : seg.split(/[^A-Za-z0-9]+/)))
    .filter(Boolean);
  return r.method + words.map((w) => (w[0] as string).toUpperCase() + w.slice(1)).join("");
}

/** A parameter's schema, with its description lifted to the parameter, where the UI shows it. */
function parameter(name: string, where: "path" | "query", schema: JsonSchema, required: boolean) {
  const { description, ...rest } = schema;
  const text = (description as string | undefined) ?? (where === "path" ? PATH_PARAMETERS[name] : undefined);
  return { name, in: where, required, ...(text ? { description: text } : {}), schema: rest };
}

function parameters(r: RouteSpec, schemas: SchemaComponents, id: string): unknown[] {
  const shape = (r.params?.shape ?? {}) as Record<string, z.ZodType>;
  const out = [...r.path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map(([, name = ""]) => {
    const declared = shape[name];
    const schema = declared
      ? schemas.convert(declared, "input", `${id}_${name}`)
      : { type: "string", minLength: 1 };
    return parameter(name, "path", schema, true);
  });
  for (const [name, s] of Object.entries((r.query?.shape ?? {}) as Record<string, z.ZodType>)) {
    const required = !s.safeParse(undefined).success;
    out.push(parameter(name, "query", schemas.convert(s, "input", `${id}_${name}`), required));
  }
  return out;
}

/** The body's media type with its schema and examples (one as `example`, several as `examples`). */
function requestBody(r: RouteSpec, schemas: SchemaComponents, id: string): unknown {
  if (!r.body) return undefined;
  const media: Record<string, unknown> = { schema: schemas.convert(r.body, "input", `${id}_body`) };
  const examples = Object.entries(r.examples ?? {});
  if (examples.length === 1) media.example = examples[0]?.[1];
  else if (examples.length > 1)
    media.examples = Object.fromEntries(examples.map(([name, value]) => [name, { value }]));
  return { required: !r.bodyOptional, content: { [r.bodyType ?? JSON_TYPE]: media } };
}

function responses(r: RouteSpec, schemas: SchemaComponents, id: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const produces = r.produces ?? JSON_TYPE;
  const errors = errorCodes(r);
  for (const [status, res] of Object.entries(r.responses)) {
    if (Number(status) >= 400 && !res.schema) continue;
    const schema = res.schema
      ? schemas.convert(res.schema, "output", `${id}_${status}`)
      : produces !== JSON_TYPE && Number(status) < 300
        ? { type: "string" }
        : undefined;
    const type = Number(status) >= 400 ? JSON_TYPE : produces;
    out[status] = schema
      ? { description: res.description, content: { [type]: { schema } } }
      : { description: res.description };
  }
  for (const [status, codes] of errors) {
    out[status] = errorResponse(status, r.responses[status]?.description, codes);
  }
  return out;
}

/** The roles that may call a route, admin last: the OAuth2 scopes its security requirement lists. */
const rolesOf = (r: RouteSpec) => rolesWithAdmin(r.roles ?? []);

/**
 * Bearer routes take a token from the password flow or a pasted one; screen routes also the cookie. The
 * oauth2 requirement names the roles that may call it as scopes (a token's `scope` is its user's role).
 */
function security(r: RouteSpec, oauth2: boolean): unknown[] | undefined {
  if (r.tokenEndpoint) return [{ clientBasic: [] }];
  if (!r.auth && !r.screenSession) return undefined;
  return [
    ...(oauth2 ? [{ oauth2: rolesOf(r) }] : []),
    { bearer: [] },
    ...(r.screenSession ? [{ screenSession: [] }] : []),
  ];
}

export function operation(r: RouteSpec, schemas: SchemaComponents, oauth2: boolean): Record<string, unknown> {
  const id = operationId(r);
  const roles = r.auth || r.screenSession ? `**Roles:** ${rolesOf(r).join(", ")}.` : undefined;
  const description = [r.description, roles].filter(Boolean).join("\n\n");
  const op: Record<string, unknown> = {
    operationId: id,
    tags: [r.tag],
    summary: r.summary,
    ...(description ? { description } : {}),
    parameters: parameters(r, schemas, id),
  };
  const body = requestBody(r, schemas, id);
  if (body) op.requestBody = body;
  op.responses = responses(r, schemas, id);
  const sec = security(r, oauth2);
  if (sec) op.security = sec;
  return op;
}
