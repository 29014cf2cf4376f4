import type { z } from "zod";
import type { ErrorCode } from "../domain/errors.js";
import type { Role } from "../domain/roles.js";
import type { ForbiddenEvent } from "../services/auth/auth.service.js";

/** Told of every caller refused for their role (services/auth/access-events.ts `onForbidden`). */
export type OnForbidden = (e: ForbiddenEvent) => void;

/** One answer of a route: an error status lists the stable codes it answers with (docs/errors.md). */
export interface RouteResponse {
  description: string;
  schema?: z.ZodType;
  codes?: ErrorCode[];
}

/** What every route declares once; the same zod schemas validate requests and document them. */
interface RouteSpecBase {
  method: "get" | "post" | "put" | "delete";
  /** Full path in Hono syntax, e.g. `/station/seats/:seat/login`. */
  path: string;
  tag: string;
  summary: string;
  /** Longer text for the reference, Markdown. */
  description?: string;
  /** Also takes the seat's screen session cookie instead of a bearer token (station/screen/routes/screen-auth.ts). */
  screenSession?: boolean;
  /** The OAuth2 token endpoint: the document's password flow points at it. */
  tokenEndpoint?: boolean;
  /** Path parameters the handler validates beyond "a non-empty segment". */
  params?: z.ZodObject;
  body?: z.ZodType;
  /** Content type of the body when it is not JSON (the token endpoint takes a form). */
  bodyType?: string;
  /** The body may be left out. */
  bodyOptional?: boolean;
  /**
   * A smaller body limit than `http.bodyLimitBytes`, for a route anyone may call (the token endpoint,
   * the screen sign-in): what it takes is a few hundred bytes, so a caller without a credential cannot
   * make the agent read and parse a megabyte.
   */
  bodyLimitBytes?: number;
  /**
   * Work grows with what is asked (a search, a report): held to `http.costlyRequestsPerSecond` per user
   * (user-rate.ts), 429 `rate_limited` past it.
   */
  costly?: boolean;
  /**
   * Stores what it is sent (an item, a catalog): held to `http.storedBytesPerSecond` per user, counted
   * before the body is read (user-rate.ts, docs/limits.md).
   */
  storesBody?: boolean;
  /** Request bodies to show, by name; each must pass `body` (checked by a test). */
  examples?: Record<string, unknown>;
  query?: z.ZodObject;
  /** Media type of the success response; JSON unless said. */
  produces?: string;
  /** Changes station data in a transaction (a 503 when storage refuses); default: all but GET. */
  commits?: boolean;
  responses: Record<number, RouteResponse>;
}

/**
 * A route that authenticates declares the roles that may call it (docs/security.md#roles): a bearer route by
 * type, a screen route (`auth: false, screenSession: true`) is checked by `route()` at registration.
 * `admin` may call every route, listed or not.
 */
export type RouteSpec = RouteSpecBase & ({ auth: true; roles: Role[] } | { auth: false; roles?: Role[] });
