import type { Context } from "hono";
import { errorBody, statusOf } from "../domain/error-body.js";
import type { AppError } from "../domain/errors.js";

export { type ErrorBody, errorBody, statusFor } from "../domain/error-body.js";
export { ERROR_CODES } from "../domain/errors.js";

export function sendError(c: Context, err: AppError): Response {
  if (err.kind === "unauthenticated") c.header("WWW-Authenticate", 'Bearer realm="pps-edge"');
  const retryAfter = err.details?.retryAfterSeconds;
  if (typeof retryAfter === "number") c.header("Retry-After", String(retryAfter));
  return c.json(errorBody(err, c.get("requestId") as string | undefined), statusOf(err));
}
