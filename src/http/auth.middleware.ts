import type { MiddlewareHandler } from "hono";
import type { AuthService } from "../services/auth/auth.service.js";
import type { AppEnv } from "./context.js";

/**
 * Requires `Authorization: Bearer <token>` (spec: Authentication, "on every call except the token
 * endpoint"). A missing, malformed, unknown or expired token is a 401 with code `unauthorized`.
 *
 * @example
 * app.use("/api-gateway/mdm-service/*", requireBearer(auth));
 */
export function requireBearer(auth: AuthService): MiddlewareHandler<AppEnv> {
  return async function requireBearerToken(c, next) {
    c.set("user", auth.authenticate(c.req.header("authorization")));
    await next();
  };
}
