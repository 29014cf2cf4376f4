import type { Context } from "hono";
import { errorBody, statusFor } from "../domain/error-body.js";
import type { AppError } from "../domain/errors.js";

export { ERROR_CODES, type ErrorBody, errorBody, statusFor } from "../domain/error-body.js";

export function sendError(c: Context, err: AppError): Response {
  const status = statusFor(err.code);
  if (status === 401) c.header("WWW-Authenticate", 'Bearer realm="pps-edge"');
  return c.json(errorBody(err, c.get("requestId") as string | undefined), status);
}
