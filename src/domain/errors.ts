/**
 * One error type for the whole agent. `code` is a stable identifier that clients and tests rely on;
 * `kind` is what the code means to a caller (bad input, unknown resource, conflict with the current
 * state, unavailable for now), derived from the code in one table below. The shells turn kinds into
 * their own statuses (src/domain/error-body.ts). Never match on `message`.
 */
export type ErrorCode =
  // request shape (400 unless noted)
  | "validation_failed"
  | "malformed_json"
  | "body_too_deep" // JSON nested deeper than the agent reads (domain/json-body.ts)
  | "unsupported_media_type" // 415
  | "payload_too_large" // 413
  | "not_acceptable" // 406
  | "unsupported_grant_type"
  | "invalid_request"
  | "invalid_filter"
  | "unknown_search_key"
  | "unsupported_operator"
  | "schema_missing"
  | "search_too_broad" // 400: more items match a search than its answer may hold (domain/work-limits.ts)
  | "limit_exceeded" // 413: a request asks for more work than a configured limit allows
  | "ambiguous_item" // a name (pdfa_values, product_sku) that matches several items; details.candidates
  // auth
  | "unauthorized" // 401
  | "invalid_credentials" // 401
  | "forbidden" // 403: authenticated, but not for this (a screen session outside its seat)
  | "too_many_attempts" // 429: too many failed logins for this user and address, or this address
  | "rate_limited" // 429: more requests a second to the costly routes than the user's budget
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
  | "no_free_bin" // 409: a bin reported full has no free bin to go on in (docs/station.md#bin-full-box-full)
  | "user_exists" // 409
  | "keyin_not_allowed" // 409: a key-in audit count for an audit created without kq
  | "scan_refused" // 409: a scan, key-in or press the station engine refused (details.reason says why)
  | "stale_screen" // 409: an operator-screen tap made on a screen state older than the seat's current one
  | "expired" // 409: a pick of a unit whose captured expiry date has passed (docs/capture.md)
  | "serial_taken" // 409: a pick with a serial number already picked at this station (docs/capture.md)
  | "webhook_url_refused" // 400: a webhook URL to the agent itself, a metadata or link-local address (docs/webhooks.md#safety)
  | "webhook_exists" // 409: a webhook endpoint with this id exists
  | "webhook_in_config" // 409: the config file owns this endpoint's URL, types and secret
  | "replay_not_kept" // 409: a webhook replay range reaches notifications already pruned
  // capacity and availability
  | "outbox_full" // 503
  | "not_ready" // 503
  | "storage_full" // 503: the disk holding the database is full
  | "storage_budget" // 503: the database reached its configured size, or the disk its free-space floor
  | "storage_error" // 503: the database could not be read or written (I/O error, locked too long)
  | "answers_backlog"; // 503: answers unread by their clients fill http.answerBufferBytes, some for this address

/** What an error means to the caller, whatever the protocol that carries it. */
export type ErrorKind =
  /** the input is malformed or breaks a rule: do not send it again as it is */
  | "invalid"
  /** no valid credential or token */
  | "unauthenticated"
  /** authenticated, but this credential may not do it */
  | "forbidden"
  | "not_found"
  /** the resource exists but not with this method */
  | "method_not_allowed"
  /** too many attempts: wait (`details.retryAfterSeconds`, HTTP `Retry-After`) before trying again */
  | "throttled"
  /** the caller will not accept what the operation answers */
  | "not_acceptable"
  | "too_large"
  | "unsupported_media_type"
  /** the move conflicts with the current state: it may pass once the state has changed */
  | "conflict"
  /** the station cannot take the change now; nothing was changed and the same request may pass later */
  | "unavailable";

const KIND: Record<ErrorCode, ErrorKind> = {
  validation_failed: "invalid",
  malformed_json: "invalid",
  body_too_deep: "invalid",
  unsupported_media_type: "unsupported_media_type",
  payload_too_large: "too_large",
  not_acceptable: "not_acceptable",
  unsupported_grant_type: "invalid",
  invalid_request: "invalid",
  invalid_filter: "invalid",
  unknown_search_key: "invalid",
  unsupported_operator: "invalid",
  schema_missing: "invalid",
  search_too_broad: "invalid",
  limit_exceeded: "too_large",
  ambiguous_item: "invalid",
  unauthorized: "unauthenticated",
  invalid_credentials: "unauthenticated",
  forbidden: "forbidden",
  too_many_attempts: "throttled",
  rate_limited: "throttled",
  not_found: "not_found",
  route_not_found: "not_found",
  method_not_allowed: "method_not_allowed",
  barcode_conflict: "conflict",
  identity_conflict: "conflict",
  duplicate_request: "conflict",
  invalid_state: "conflict",
  // the spec answers print_ready for an order not waiting for it as a bad request
  invalid_order_status: "invalid",
  not_logged_in: "conflict",
  wrong_mode: "conflict",
  no_free_bin: "conflict",
  user_exists: "conflict",
  keyin_not_allowed: "conflict",
  scan_refused: "conflict",
  stale_screen: "conflict",
  expired: "conflict",
  serial_taken: "conflict",
  webhook_url_refused: "invalid",
  webhook_exists: "conflict",
  webhook_in_config: "conflict",
  replay_not_kept: "conflict",
  outbox_full: "unavailable",
  not_ready: "unavailable",
  storage_full: "unavailable",
  storage_budget: "unavailable",
  storage_error: "unavailable",
  answers_backlog: "unavailable",
};

/** Every stable error code (docs/errors.md lists each with its status). */
export const ERROR_CODES = Object.keys(KIND) as ErrorCode[];

export function kindOf(code: ErrorCode): ErrorKind {
  return KIND[code];
}

export interface FieldError {
  /** JSON path of the field at fault, dotted, e.g. `display_data.0.locale` */
  path: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly kind: ErrorKind;
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
    this.kind = KIND[code];
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
