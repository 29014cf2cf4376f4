/**
 * What OAuth 2.0 clients read in a refusal, beside the agent's own error body: the token endpoint's
 * `error` member (RFC 6749 §5.2) and the bearer challenge of the other routes (RFC 6750 §3). Client
 * libraries act on these, not on `code` (docs/decisions.md#authentication-and-tokens).
 */
import type { AppError } from "../domain/errors.js";

/** The RFC 6749 §5.2 error codes the token endpoint answers. */
export const TOKEN_ERRORS = [
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unsupported_grant_type",
] as const;
export type TokenError = (typeof TOKEN_ERRORS)[number];

const SCHEME = /^\s*(\S+)/;
const schemeOf = (authorization: string | undefined): string | undefined =>
  SCHEME.exec(authorization ?? "")?.[1]?.toLowerCase();

/**
 * The token endpoint's `error` for a refusal, or undefined for one that is the agent's condition rather
 * than the request's (503). Every credential failure is one answer (docs/security.md#login-policy): it
 * is `invalid_client` only when no `Basic` client credential was sent at all ("no client authentication
 * included"), which tells the caller nothing it did not know; otherwise `invalid_grant`, which is what
 * a wrong password is, without saying whether the client credential was right too.
 */
export function tokenError(err: AppError, authorization: string | undefined): TokenError | undefined {
  if (err.code === "unsupported_grant_type") return "unsupported_grant_type";
  switch (err.kind) {
    case "unauthenticated":
      return schemeOf(authorization) === "basic" ? "invalid_grant" : "invalid_client";
    // a login refused while its name or address is locked: the grant is refused, Retry-After says when to try
    case "throttled":
      return "invalid_grant";
    case "invalid":
    case "too_large":
    case "unsupported_media_type":
    case "not_acceptable":
    case "method_not_allowed":
      return "invalid_request";
    default:
      return undefined;
  }
}

/** RFC 6750 §3: `error_description` is ASCII without `"` and `\`; a message outside that is left out. */
const QUOTABLE = /^[\x20\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * The `WWW-Authenticate` of a 401. The token endpoint asks for its `Basic` client credential (RFC 6749
 * §5.2). Elsewhere the challenge is `Bearer`: with `error="invalid_token"` when a bearer token was sent
 * and refused (malformed, unknown, revoked, expired), and without an error code when none was sent
 * (RFC 6750 §3.1: "the resource server SHOULD NOT include an error code").
 */
export function authenticateChallenge(
  err: AppError,
  authorization: string | undefined,
  tokenEndpoint: boolean,
): string {
  if (tokenEndpoint) return 'Basic realm="pps-edge", charset="UTF-8"';
  if (schemeOf(authorization) !== "bearer") return 'Bearer realm="pps-edge"';
  const description = QUOTABLE.test(err.message) ? `, error_description="${err.message}"` : "";
  return `Bearer realm="pps-edge", error="invalid_token"${description}`;
}
