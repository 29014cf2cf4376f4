import { ERROR_CODES, type ErrorCode } from "../domain/errors.js";
import { TOKEN_ERRORS } from "./oauth-errors.js";
import type { RouteSpec } from "./route-spec.js";

/**
 * The error answers of each operation in the OpenAPI document: the statuses and stable codes its
 * handler declares, plus those the app answers for every route of its kind whatever the handler does
 * (route.ts: 406 and 403 for a role; the bearer guard: 401; body.ts: 400, 413, 415; the unit of work: 503). The codes
 * and their statuses are those of domain/errors.ts and domain/error-body.ts (docs/errors.md).
 */

export const ERROR_SCHEMA = {
  type: "object",
  required: ["status", "code", "message", "errors"],
  properties: {
    status: { type: "integer", description: "the HTTP status, repeated" },
    code: {
      type: "string",
      enum: [...ERROR_CODES, "internal_error"],
      description: "stable identifier: clients match on it, never on `message`",
    },
    message: { type: "string", description: "for a person; may change between versions" },
    errors: {
      type: "array",
      description: "each field at fault (a dotted JSON path, or a header or parameter name)",
      items: {
        type: "object",
        required: ["path", "message"],
        properties: { path: { type: "string" }, message: { type: "string" } },
      },
    },
    details: {
      type: "object",
      additionalProperties: true,
      description: "facts a client can act on, e.g. the reason a scan was refused",
    },
    requestId: { type: "string", description: "the request's X-Request-Id, also in the agent's log" },
    error: {
      type: "string",
      enum: [...TOKEN_ERRORS],
      description: "the token endpoint's refusals only: the OAuth 2.0 error code (RFC 6749 §5.2)",
    },
  },
};

/** What an automatic status means, when the route does not describe it itself. */
const MEANING: Record<number, string> = {
  400: "the request is malformed or breaks a rule; `errors` names each field at fault",
  401: "no valid credential: the bearer token is missing, malformed, unknown, revoked or expired",
  403: "authenticated, but not for this: the user's role may not call it (docs/security.md#roles), or a screen session of another seat",
  404: "not found",
  406: "the Accept header does not admit the media type this operation answers",
  409: "the move conflicts with the current state; it may pass once the state has changed",
  413: "the body is larger than the agent's limit (config `http.bodyLimitBytes`)",
  415: "the body is not of the media type this operation takes",
  429: "too many failed logins, too many calls to a costly route, or too many bytes stored a second: `Retry-After` says in how many seconds to try again",
  503: "the station cannot take the change now (disk full, database unavailable, too many notifications waiting): nothing was changed, and the same request may pass later",
};

/** The code of a declared error status that names none: the one code each of these statuses has. */
const ONLY_CODE: Partial<Record<number, ErrorCode>> = {
  400: "validation_failed",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
};

/** Does the route change station data in a transaction (which storage or a full outbox may refuse)? */
const commits = (r: RouteSpec) => r.commits ?? r.method !== "get";

/** Every error status the operation may answer, with its codes, by status. */
export function errorCodes(r: RouteSpec): Map<number, ErrorCode[]> {
  const out = new Map<number, Set<ErrorCode>>();
  const add = (status: number, ...codes: ErrorCode[]) => {
    const set = out.get(status) ?? new Set<ErrorCode>();
    for (const c of codes) set.add(c);
    out.set(status, set);
  };
  for (const [status, res] of Object.entries(r.responses)) {
    const s = Number(status);
    if (s < 400 || res.schema) continue;
    const only = ONLY_CODE[s];
    add(s, ...(res.codes ?? (only ? [only] : [])));
  }
  add(406, "not_acceptable");
  if (r.auth || r.screenSession) {
    add(401, "unauthorized");
    add(403, "forbidden");
  }
  if (r.body) {
    add(413, "payload_too_large");
    add(415, "unsupported_media_type");
    if (!r.bodyType) add(400, "validation_failed", "malformed_json", "body_too_deep");
  }
  if (r.costly || r.storesBody) add(429, "rate_limited");
  if (commits(r)) add(503, "outbox_full", "storage_full", "storage_budget", "storage_error");
  return new Map([...out].sort(([a], [b]) => a - b).map(([s, set]) => [s, [...set]]));
}

/** An error answer: the Error body with `code` narrowed to this status's codes, and an example. */
export function errorResponse(status: number, description: string | undefined, codes: ErrorCode[]) {
  const text = (description ?? MEANING[status] ?? "error").replace(/\.$/, "");
  const list = codes.map((c) => `\`${c}\``).join(", ");
  return {
    description: codes.length ? `${text}. Codes: ${list}.` : text,
    "x-error-codes": codes,
    content: {
      "application/json": {
        schema: {
          allOf: [
            { $ref: "#/components/schemas/Error" },
            { type: "object", properties: { code: { type: "string", enum: codes } } },
          ],
        },
        example: {
          status,
          code: codes[0],
          message: MEANING[status] ?? text,
          errors: [],
          requestId: "3f0c1e9a-7d1b-4c55-9a43-5b2f8e6d0a11",
        },
      },
    },
  };
}
