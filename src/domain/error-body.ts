import { type AppError, type ErrorCode, type ErrorKind, type FieldError, kindOf } from "./errors.js";

/**
 * The error body and status every shell answers with. HTTP sends it as the response; MQTT responses
 * carry the same body (`response/<name>` `error`), so a client handles a refusal the same way on both
 * paths. Shared by `http/` and `sync/`, which may not import each other; imports only `domain/`.
 */

/** An HTTP status an error maps to (a subset of the numbers, kept free of any HTTP library). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 406 | 409 | 413 | 415 | 429 | 503;

/** The one place where error kinds become statuses (docs/architecture.md#http). */
const STATUS: Record<ErrorKind, ErrorStatus> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  conflict: 409,
  too_large: 413,
  unsupported_media_type: 415,
  throttled: 429,
  unavailable: 503,
};

export function statusFor(code: ErrorCode): ErrorStatus {
  return STATUS[kindOf(code)];
}

export function statusOf(err: AppError): ErrorStatus {
  return STATUS[err.kind];
}

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
    status: statusOf(err),
    code: err.code,
    message: err.message,
    errors: err.errors,
  };
  if (err.details) body.details = err.details;
  if (requestId) body.requestId = requestId;
  return body;
}

/** A fault in the agent, not the client's: the request id leads to the log line with the cause. */
export function internalErrorBody(requestId?: string): ErrorBody {
  return {
    status: 500,
    code: "internal_error",
    message: requestId ? "internal error; the request id is in the log" : "internal error",
    errors: [],
    ...(requestId ? { requestId } : {}),
  };
}
