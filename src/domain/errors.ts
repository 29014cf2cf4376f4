/**
 * One error type for the whole agent. `code` is a stable identifier that clients and tests rely on;
 * the HTTP layer maps codes to statuses in one place (src/http/errors.ts). Never match on `message`.
 */
export type ErrorCode =
  // request shape (400 unless noted)
  | "validation_failed"
  | "malformed_json"
  | "unsupported_media_type" // 415
  | "payload_too_large" // 413
  | "not_acceptable" // 406
  | "unsupported_grant_type"
  | "invalid_request"
  | "invalid_filter"
  | "unknown_search_key"
  | "unsupported_operator"
  | "schema_missing"
  // auth
  | "unauthorized" // 401
  | "invalid_credentials" // 401
  | "forbidden" // 403: authenticated, but not for this (a screen session outside its seat)
  // resources
  | "not_found" // 404
  | "route_not_found" // 404
  | "method_not_allowed" // 405
  | "barcode_conflict" // 409
  | "identity_conflict" // 409
  | "duplicate_request" // 409
  | "invalid_state" // 409
  | "invalid_order_status" // 400 (spec: print ready "400 can be due to invalid order status")
  | "not_logged_in" // 409
  | "wrong_mode" // 409
  | "user_exists" // 409
  | "keyin_not_allowed" // 409: a key-in audit count for an audit created without kq
  | "scan_refused" // 409: a scan, key-in or press the station engine refused (details.reason says why)
  // capacity and availability
  | "outbox_full" // 503
  | "not_ready"; // 503

export interface FieldError {
  /** JSON path of the field at fault, dotted, e.g. `display_data.0.locale` */
  path: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly errors: FieldError[];
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    errors: FieldError[] = [],
    details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.errors = errors;
    this.details = details;
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

/** A 400 naming one field. */
export function fieldError(path: string, message: string, code: ErrorCode = "validation_failed"): AppError {
  return new AppError(code, `${path}: ${message}`, [{ path, message }]);
}
