import type { AppError, ErrorCode, FieldError } from "./errors.js";

/** An HTTP status a client error maps to (a subset of the numbers, kept free of any HTTP library). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 406 | 409 | 413 | 415 | 503;

/**
 * The one place where error codes become statuses (DESIGN.md §5 "HTTP"). MQTT responses carry the same
 * body, so the mapping lives in the domain, not in the HTTP layer.
 */
const STATUS: Record<ErrorCode, ErrorStatus> = {
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
  forbidden: 403,
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

export function statusFor(code: ErrorCode): ErrorStatus {
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
