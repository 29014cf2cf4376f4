import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppError, ErrorCode, FieldError } from "../domain/errors.js";

/** The one place where error codes become HTTP statuses (DESIGN.md §5 "HTTP"). */
const STATUS: Record<ErrorCode, ContentfulStatusCode> = {
  validation_failed: 400,
  malformed_json: 400,
  unsupported_media_type: 415,
  payload_too_large: 413,
  not_acceptable: 406,
  unsupported_grant_type: 400,
  invalid_request: 400,
  invalid_filter: 400,
  unknown_search_key: 400,
  unsupported_operator: 400,
  schema_missing: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  not_found: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  barcode_conflict: 409,
  identity_conflict: 409,
  duplicate_request: 409,
  invalid_state: 409,
  invalid_order_status: 400,
  not_logged_in: 409,
  wrong_mode: 409,
  user_exists: 409,
  keyin_not_allowed: 409,
  scan_refused: 409,
  outbox_full: 503,
  not_ready: 503,
};

export function statusFor(code: ErrorCode): ContentfulStatusCode {
  return STATUS[code];
}

export const ERROR_CODES = Object.keys(STATUS) as ErrorCode[];

export interface ErrorBody {
  status: number;
  code: ErrorCode | "internal_error";
  message: string;
  errors: FieldError[];
  /** Extra facts a client can act on, e.g. the item holding a conflicting barcode. */
  details?: Record<string, unknown>;
  requestId?: string;
}

export function errorBody(err: AppError, requestId?: string): ErrorBody {
  const body: ErrorBody = {
    status: statusFor(err.code),
    code: err.code,
    message: err.message,
    errors: err.errors,
  };
  if (err.details) body.details = err.details;
  if (requestId) body.requestId = requestId;
  return body;
}

export function sendError(c: Context, err: AppError): Response {
  const status = statusFor(err.code);
  if (status === 401) c.header("WWW-Authenticate", 'Bearer realm="pps-edge"');
  return c.json(errorBody(err, c.get("requestId") as string | undefined), status);
}
