import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import type { AppEnv } from "./context.js";

/** What every route declares once; the same zod schemas validate requests and document them. */
export interface RouteSpec {
  method: "get" | "post" | "put" | "delete";
  /** Full path in Hono syntax, e.g. `/station/seats/:seat/login`. */
  path: string;
  tag: string;
  summary: string;
  auth: boolean;
  body?: z.ZodType;
  /** Content type of the body when it is not JSON (the token endpoint takes a form). */
  bodyType?: string;
  query?: z.ZodObject;
  /** Media type of the success response; JSON unless said. */
  produces?: string;
  responses: Record<number, { description: string; schema?: z.ZodType }>;
}

export class RouteRegistry {
  readonly routes: RouteSpec[] = [];
  /** Middleware that authenticates routes declared with `auth: true`. */
  guard: MiddlewareHandler<AppEnv> | undefined;

  constructor(guard?: MiddlewareHandler<AppEnv>) {
    this.guard = guard;
  }

  add(spec: RouteSpec): RouteSpec {
    this.routes.push(spec);
    return spec;
  }

  /** Methods registered for a concrete path, for 405 answers with an `Allow` header. */
  methodsFor(path: string): string[] {
    const out = new Set<string>();
    for (const r of this.routes) if (pathRegex(r.path).test(path)) out.add(r.method.toUpperCase());
    return [...out];
  }
}

const regexCache = new Map<string, RegExp>();
function pathRegex(path: string): RegExp {
  let re = regexCache.get(path);
  if (!re) {
    const escaped = path
      .split("/")
      .map((seg) => (seg.startsWith(":") ? "[^/]+" : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/");
    re = new RegExp(`^${escaped}/?$`);
    regexCache.set(path, re);
  }
  return re;
}

function jsonSchema(schema: z.ZodType): unknown {
  return z.toJSONSchema(schema, { target: "openapi-3.0", io: "input", unrepresentable: "any" });
}

const errorSchema = {
  type: "object",
  required: ["status", "code", "message", "errors"],
  properties: {
    status: { type: "integer" },
    code: { type: "string", description: "stable identifier; see the README's error table" },
    message: { type: "string" },
    errors: {
      type: "array",
      items: {
        type: "object",
        properties: { path: { type: "string" }, message: { type: "string" } },
      },
    },
    details: { type: "object" },
    requestId: { type: "string" },
  },
};

/** Builds the OpenAPI 3.0 document served at /openapi.json. */
export function buildOpenApi(registry: RouteRegistry, version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of registry.routes) {
    const oaPath = r.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}");
    const params = [...r.path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => ({
      name: m[1],
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    if (r.query) {
      for (const [name, s] of Object.entries(r.query.shape)) {
        params.push({
          name,
          in: "query",
          required: !(s as z.ZodType).safeParse(undefined).success,
          schema: jsonSchema(s as z.ZodType) as { type: string },
        });
      }
    }
    const responses: Record<string, unknown> = {};
    for (const [status, res] of Object.entries(r.responses)) {
      const isError = Number(status) >= 400;
      const schema = res.schema ? jsonSchema(res.schema) : isError ? errorSchema : undefined;
      responses[status] = schema
        ? { description: res.description, content: { "application/json": { schema } } }
        : { description: res.description };
    }
    const op: Record<string, unknown> = {
      tags: [r.tag],
      summary: r.summary,
      parameters: params,
      responses,
    };
    if (r.auth) op.security = [{ bearer: [] }];
    if (r.body) {
      op.requestBody = {
        required: true,
        content: { [r.bodyType ?? "application/json"]: { schema: jsonSchema(r.body) } },
      };
    }
    paths[oaPath] ??= {};
    (paths[oaPath] as Record<string, unknown>)[r.method] = op;
  }
  return {
    openapi: "3.0.3",
    info: {
      title: "pps-edge: Warehouse Fulfilment Service interface at the station",
      version,
      description: "Spec endpoints exactly as the interface specification, plus station, health and metrics.",
    },
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer" },
        clientBasic: { type: "http", scheme: "basic" },
      },
      schemas: { Error: errorSchema },
    },
    paths,
  };
}
