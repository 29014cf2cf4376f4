import type { IncomingMessage } from "node:http";
import type { Context } from "hono";
import type { AuthUser } from "../services/auth/auth.service.js";

/** Per-request values set by middleware. */
export type AppEnv = {
  Variables: {
    requestId: string;
    /** The matched route pattern, for metrics and logs. */
    route: string;
    user: AuthUser;
    /** The body limit in force (body.ts `limitBody`). */
    bodyLimitBytes: number;
  };
};

/**
 * The address of the socket the request came on; never `X-Forwarded-For`, which any client can write.
 * In-process requests (`app.request()`) have no socket, unless the caller passes one as `incoming`.
 */
export function clientAddress(c: Context<AppEnv>): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress;
}
