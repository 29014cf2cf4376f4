/**
 * docs/errors.md, written from the error codes and their kinds (src/domain/errors.ts) and the status
 * each kind is answered with (src/domain/error-body.ts). What each code means to a client is kept here,
 * one entry per code: a code added to the domain without its entry fails the type check. Pure:
 * `npm run docs:generate` writes its output, test/unit/docs/generated.test.ts compares.
 */

import { statusFor } from "../../src/domain/error-body.js";
import { ERROR_CODES, type ErrorCode, kindOf } from "../../src/domain/errors.js";

/** When a client gets each code. */
export const WHEN: Record<ErrorCode, string> = {
  validation_failed: "a body field is missing, of the wrong type, too long, or breaks a spec rule",
  malformed_json: "the body is not JSON",
  body_too_deep:
    "the JSON body (or MQTT request) nests arrays and objects more than 64 levels deep; refused before it is parsed",
  invalid_request:
    "a required token-endpoint parameter (`grant_type`, `username`, `password`, `refresh_token`) is missing; or a request that is not well-formed HTTP (a malformed request line, a backslash or control character in the path, request line and headers over 16 KiB): `errors[0].path` is `request line`, `headers` or `request`, and the connection is closed",
  unsupported_grant_type: "`grant_type` is not `password` or `refresh_token`",
  unknown_search_key: "a search key is not a unique attribute of any item schema",
  unsupported_operator: "a search operator other than `=`",
  schema_missing: "an item has no schema and its category has none",
  search_too_broad:
    "more items match a `search_v2` than `search.maxResults`, or their answer would exceed `search.maxAnswerBytes`: refine the search (add a filter); nothing is answered in part. `details` name the limit (its configuration key) and its value",
  limit_exceeded:
    "a request asks for more work than a configured limit allows: pick lines (`pick.maxLines`), values in one `in` list (`pick.maxFilterValues`), index rows read to resolve its filters (`pick.maxCandidates`); nothing was changed. `errors[0].path` names the field, `details` the limit (its configuration key), its value and what was asked",
  ambiguous_item:
    "a name of an item (`pdfa_values`, or `product_sku` / `pdfa_values` of a station call) matches several items; `details.candidates` lists each one's `uid` and `pdfa_values`: name one of them by a whole uniqueness group or by `uid` (see [item identity](decisions.md#item-identity))",
  unauthorized: "bearer token missing, malformed, unknown, revoked or expired: fetch a new token",
  invalid_credentials:
    "token endpoint: wrong client credential, user, password or refresh token (one answer for all)",
  forbidden:
    "the user's role may not call this route (see [roles](security.md#roles)), a screen sign-in by a user whose role may not use the screen, or an operator screen's session used for another seat than its own (see [operator screen](station.md#operator-screen))",
  too_many_attempts:
    "token endpoint and operator screen sign-in: too many failed logins for this user name from this address, or from this address; `Retry-After` (and `details.retryAfterSeconds`) says how many seconds to wait (see [login policy](security.md#login-policy))",
  rate_limited:
    "a user called the costly routes (item search, inventory report) more often than `http.costlyRequestsPerSecond` allows (bursts up to `http.costlyBurst`); `Retry-After` (and `details.retryAfterSeconds`) says how many seconds to wait; nothing was done (see [limits](limits.md))",
  route_not_found: "no such path",
  not_found: "no such resource",
  method_not_allowed: "the path exists with other methods (`Allow` header lists them)",
  not_acceptable: "`Accept` excludes the endpoint's media type",
  barcode_conflict: "a barcode is held by another item; `details` names the barcode and the item",
  identity_conflict: "the item's unique groups match two different existing items",
  keyin_not_allowed: "an audit count keyed in for an audit created with `kq: false`",
  scan_refused:
    "the station engine refused a scan, key-in or press (`details.reason`: see [station engine](station.md#station-engine-scans-lights-and-buttons)); nothing changed",
  stale_screen:
    "an operator-screen tap carried a `version` older than the seat's screen state (the screen changed since it was tapped: look again); nothing changed",
  expired:
    "a pick of an item whose expiry date is captured, with a date before today (`capture.expiry`, see [capture](capture.md#over-the-station-api)); nothing changed",
  serial_taken:
    "a pick with a serial number an earlier pick at this station already reported (`capture.serial`, see [capture](capture.md#over-the-station-api)); nothing changed",
  webhook_url_refused:
    "a webhook endpoint URL that points at the agent itself, a cloud metadata service, or a loopback or link-local address the config does not allow, or is `http://` where only `https://` is allowed (see [webhooks](webhooks.md#safety)); nothing changed",
  webhook_exists: "a webhook endpoint with this `id` exists; nothing changed",
  webhook_in_config:
    "a change to the URL, types or secret of a webhook endpoint the config file declares, or its removal: edit the config file instead; nothing changed",
  replay_not_kept:
    "a webhook replay range that starts before the oldest notification the outbox still keeps (`details.firstKept`); nothing changed",
  payload_too_large: "the body is over `http.bodyLimitBytes`",
  unsupported_media_type:
    "wrong `Content-Type` (JSON endpoints take `application/json`, the token endpoint a form)",
  invalid_filter: "a pick filter string does not parse; names the line and the string",
  invalid_order_status: "`print_ready` for an order that is not waiting for its label",
  invalid_state: "a move the state tables do not allow now (request, audit, bin, seat, stock reservation)",
  duplicate_request:
    "an `externalServiceRequestId` already used by another request of that type with another body",
  wrong_mode: "the station is not in the mode the action needs (`pick`, `put`, `audit`)",
  no_free_bin:
    "a bin (or box) reported full while no bin is free for its orders to go on in: empty a bin first (see [bin full, box full](station.md#bin-full-box-full)); nothing changed",
  not_logged_in: "no operator is logged in at the seat the action needs",
  user_exists: "`pps-edge user add` for a user that exists",
  outbox_full:
    "`outbox.maxUndelivered` notifications, or `outbox.maxUndeliveredBytes` bytes of them, wait undelivered: the change is refused, nothing is dropped",
  not_ready: "the part that would answer is not ready (e.g. an MQTT request before its operation exists)",
  storage_full:
    "the disk holding the database is full: the change is refused and rolled back, nothing is half-written (see [storage faults](operations.md#storage-faults))",
  storage_budget:
    "the database reached `storage.maxDatabaseBytes`, or the disk has less than `storage.minFreeDiskBytes` free: the change is refused before it begins, nothing is written; reads go on (see [storage budget](operations.md#storage-budget))",
  storage_error:
    "the database could not be read or written (I/O error, or locked by another process for too long); nothing was changed",
  answers_backlog:
    "answers not yet read by their clients fill `http.answerBufferBytes`, some of them for this address (or this address left answers unread within `http.sendTimeoutMs`): a costly request (item search, inventory report) is refused before its answer is built; read the answers, or retry after `Retry-After` (see [slow readers](limits.md#slow-readers))",
};

const INTRO = `# Errors

<!-- Generated by \`npm run docs:generate\` from src/domain/errors.ts and src/domain/error-body.ts; edit
those (and the meanings in scripts/docs/error-reference.ts), not this file. -->

Every error is JSON: \`{ "status", "code", "message", "errors": [{ "path", "message" }], "details"?, "requestId" }\`.
\`code\` is stable; \`path\` names the field at fault (dotted, e.g. \`exhaustive_pdea_list.0.display_data.0.locale\`).
No client mistake answers 500. An MQTT request that is refused answers the same body as \`error\` on its
\`response/<name>\` topic ([mqtt](mqtt.md#requests-and-responses)). \`WWW-Authenticate: Bearer\` comes with
a 401, \`Retry-After\` with a 429.

Each code has a kind, what it means to a caller whatever the protocol; the kind decides the HTTP status.
Which statuses each endpoint of the interface answers beyond those the spec names is in
[decisions](decisions.md#status-codes-the-spec-does-not-show). A full or failing disk, a damaged
database and one written by a newer version are described in [operations](operations.md#storage-faults).

| code | status | kind | when |
|---|---|---|---|
`;

/** docs/errors.md: every stable code, by status, with its kind and when it is answered. */
export function errorsMarkdown(): string {
  const order = [...ERROR_CODES].sort((a, b) => statusFor(a) - statusFor(b));
  const rows = order.map(
    (code) => `| \`${code}\` | ${statusFor(code)} | ${kindOf(code)} | ${WHEN[code].replaceAll("|", "\\|")} |`,
  );
  return `${INTRO}${rows.join("\n")}\n`;
}
