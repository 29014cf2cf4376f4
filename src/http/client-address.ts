import type { IncomingMessage } from "node:http";
import type { Context } from "hono";
import type { AppEnv } from "./context.js";

/**
 * The address of the socket the request came on; never `X-Forwarded-For`, which any client can write.
 * In-process requests (`app.request()`) have no socket, unless the caller passes one as `incoming`.
 * Login throttling and the security event log key on it (docs/security.md#login-policy).
 */
export function clientAddress(c: Context<AppEnv>): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming?.socket?.remoteAddress;
}
