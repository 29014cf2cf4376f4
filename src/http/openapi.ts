import type { MiddlewareHandler } from "hono";
import type { Role } from "../domain/roles.js";
import type { AppEnv } from "./context.js";
import { ERROR_SCHEMA } from "./openapi.errors.js";
import { operation } from "./openapi.operation.js";
import { SchemaComponents } from "./openapi.schemas.js";
import type { OnForbidden, RouteSpec } from "./route-spec.js";

export type { RouteResponse, RouteSpec } from "./route-spec.js";

export class RouteRegistry {
  readonly routes: RouteSpec[] = [];
  /** Middleware that authenticates routes declared with `auth: true`. */
  guard: MiddlewareHandler<AppEnv> | undefined;
  /** Told of every caller refused for their role (route.ts). */
  onForbidden: OnForbidden | undefined;
  /** Middleware that holds each user to the costly routes' rate (user-rate.ts), when the app has one. */
  costly: MiddlewareHandler<AppEnv> | undefined;
  /** Middleware that holds each user to the stored bytes a second (user-rate.ts), when the app has one. */
  stored: MiddlewareHandler<AppEnv> | undefined;

  constructor(
    guard?: MiddlewareHandler<AppEnv>,
    onForbidden?: OnForbidden,
    costly?: MiddlewareHandler<AppEnv>,
    stored?: MiddlewareHandler<AppEnv>,
  ) {
    this.guard = guard;
    this.onForbidden = onForbidden;
    this.costly = costly;
    this.stored = stored;
  }

  add(spec: RouteSpec): RouteSpec {
    this.routes.push(spec);
    return spec;
  }

  /** Whether a concrete path is the OAuth token endpoint, whose refusals carry RFC 6749's `error`. */
  isTokenEndpoint(path: string): boolean {
    return this.routes.some((r) => r.tokenEndpoint && r.path === path);
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

/** A token's scope is its user's role (docs/security.md#roles); each operation lists the roles that may call it. */
const ROLE_SCOPES: Record<Role, string> = {
  integration: "the central system: the interface's endpoints and the station calls central makes",
  operator: "a person at the station: the operator actions and the operator screen",
  admin:
    "everything, and the station's management (mode, stock corrections, notifications, audits' dashboard actions)",
};

/** The document's security schemes: a token from the password flow or pasted as is; the client's Basic. */
function securitySchemes(tokenUrl: string | undefined): Record<string, unknown> {
  return {
    ...(tokenUrl
      ? {
          oauth2: {
            type: "oauth2",
            description:
              "Password grant at the token endpoint: the client credential (client id and secret) goes in HTTP Basic, the API user's name and password in the form.",
            flows: { password: { tokenUrl, scopes: ROLE_SCOPES } },
          },
        }
      : {}),
    bearer: {
      type: "http",
      scheme: "bearer",
      description:
        "An access token obtained from the token endpoint, sent as `Authorization: Bearer <token>`.",
    },
    clientBasic: {
      type: "http",
      scheme: "basic",
      description:
        "The client credential (config `clientId`, `clientSecret`): only the token endpoint takes it.",
    },
    screenSession: {
      type: "apiKey",
      in: "cookie",
      name: "pps_screen_<seat>",
      description:
        "A seat's screen session (one cookie per seat, set by `POST /screen/{seat}/session` or the seat's screen key); only that seat's screen routes take it.",
    },
  };
}

const description = (
  tokenPath = "(no token endpoint)",
) => `The Warehouse Fulfilment Service interface as this station serves it, the station API, and health.

**Authentication.** Every operation marked with a lock needs \`Authorization: Bearer <access_token>\`, of a user whose role the operation lists (its oauth2 scopes and the *Roles* line; admin may call everything; another role is 403 \`forbidden\`). Obtain a token with the password grant: \`POST ${tokenPath}\`, the client credential in HTTP Basic, \`grant_type=password&username=…&password=…\` as a form. On this page, *Authorize* does that for you (the oauth2 scheme), or takes a token you paste (the bearer scheme).

**Errors.** Every error is JSON: \`{status, code, message, errors[{path, message}], details?, requestId}\`; the token endpoint's also carry OAuth 2.0's \`error\` (RFC 6749 §5.2). Match on \`code\`, a stable identifier; each operation lists the codes it may answer per status. Besides those: a path with no route answers 404 \`route_not_found\`; a method a path does not have answers 405 \`method_not_allowed\` with an \`Allow\` header; a fault in the agent answers 500 \`internal_error\` (the request id is in the log).`;

/** The reference's sections, in this order: the interface's endpoints first, then the station's own. */
const TAGS: Record<string, string> = {
  auth: "Tokens for every other call (interface: Authentication).",
  catalog: "Catalogs and the product attributes they declare.",
  items: "Items: create or update by their unique attributes, search.",
  "service requests": "PICK (also pick+pack) and PUT requests: create, cancel, modify, read.",
  "put staging": "Staging a put request into a bin.",
  "process flow": "Triggers of the order flow (external printing done).",
  audits: "Audits of locations or SKUs: create, delete.",
  reports: "The inventory report: request it, download it.",
  station:
    "The station API: seats, mode, racks, picks and puts, scans and key-ins, the simulated devices, audits at the station, notifications.",
  screen: "The operator screen: its page and files, a seat's state (also live), its actions, sign-in.",
  ops: "Health, readiness, metrics and this reference. Unauthenticated: they carry no station data.",
};

function tagsOf(routes: RouteSpec[]): Array<{ name: string; description?: string }> {
  const used = new Set(routes.map((r) => r.tag));
  const ordered = [...Object.keys(TAGS).filter((t) => used.has(t)), ...[...used].filter((t) => !(t in TAGS))];
  return ordered.map((name) => (TAGS[name] ? { name, description: TAGS[name] } : { name }));
}

/** Builds the OpenAPI 3.0 document served at /openapi.json. */
export function buildOpenApi(registry: RouteRegistry, version: string): Record<string, unknown> {
  const schemas = new SchemaComponents();
  const token = registry.routes.find((r) => r.tokenEndpoint);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of registry.routes) {
    const oaPath = r.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}");
    paths[oaPath] ??= {};
    (paths[oaPath] as Record<string, unknown>)[r.method] = operation(r, schemas, token !== undefined);
  }
  return {
    openapi: "3.0.3",
    info: {
      title: "pps-edge: Warehouse Fulfilment Service interface at the station",
      version,
      description: description(token?.path),
    },
    tags: tagsOf(registry.routes),
    components: {
      securitySchemes: securitySchemes(token?.path),
      schemas: { Error: ERROR_SCHEMA, ...schemas.schemas },
    },
    paths,
  };
}
