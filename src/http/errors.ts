import type { Context } from "hono";
import { errorBody, statusOf } from "../domain/error-body.js";
import type { AppError } from "../domain/errors.js";
import { authenticateChallenge, tokenError } from "./oauth-errors.js";

export { type ErrorBody, errorBody, statusFor } from "../domain/error-body.js";
export { ERROR_CODES } from "../domain/errors.js";

/**
 * The one way an error leaves over HTTP. On the token endpoint the body also carries the OAuth 2.0
 * `error` (oauth-errors.ts); a 401 carries the challenge its caller should answer.
 */
export function sendError(c: Context, err: AppError, tokenEndpoint = false): Response {
  const authorization = c.req.header("authorization");
  if (err.kind === "unauthenticated")
    c.header("WWW-Authenticate", authenticateChallenge(err, authorization, tokenEndpoint));
  const retryAfter = err.details?.retryAfterSeconds;
  if (typeof retryAfter === "number") c.header("Retry-After", String(retryAfter));
  const body = errorBody(err, c.get("requestId") as string | undefined);
  const error = tokenEndpoint ? tokenError(err, authorization) : undefined;
  return c.json(error ? { error, ...body } : body, statusOf(err));
}
