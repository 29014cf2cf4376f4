import type { MiddlewareHandler } from "hono";
import type { Logger } from "pino";
import { AppError } from "../domain/errors.js";
import type { AppEnv } from "./context.js";

export interface MetricsAccess {
  /** `metrics.open`: anyone who reaches the HTTP port may scrape. */
  open: boolean;
  /** Is this Authorization header the scrape credential? (services/auth/scrape-token.ts) */
  isScrapeToken(authorization: string | undefined): boolean;
}

/**
 * Who may read `/metrics` (docs/security.md): the station's operational data (login failures, device
 * health, the outbox) is not for the whole LAN. The one place that decides it: the scrape token, or
 * nobody asked when `metrics.open` says so. An API user's token is not taken: were admins to scrape
 * with theirs, this is where that check would go.
 */
export function metricsAccess(access: MetricsAccess, log: Logger): MiddlewareHandler<AppEnv> {
  if (access.open) {
    log.warn("/metrics is open to anyone who reaches the HTTP port (metrics.open)");
    return async function metricsOpen(_c, next) {
      await next();
    };
  }
  return async function requireScrapeToken(c, next) {
    if (!access.isScrapeToken(c.req.header("authorization"))) {
      throw new AppError("unauthorized", "the scrape token is missing or wrong", [
        {
          path: "Authorization",
          message: "Bearer <metrics.token or metricsToken of initial-credentials.json>",
        },
      ]);
    }
    await next();
  };
}
