import { describe, expect, it } from "vitest";
import { AppError } from "../../../src/domain/errors.js";
import { authenticateChallenge, tokenError } from "../../../src/http/oauth-errors.js";

const BASIC = "Basic dGVzdDp0ZXN0";

describe("OAuth 2.0 error answers", () => {
  it("gives every token endpoint refusal of the request its RFC 6749 §5.2 code, none to the agent's own condition", () => {
    const cases: Array<[AppError, string | undefined, string | undefined]> = [
      [new AppError("invalid_request", "username is required"), BASIC, "invalid_request"],
      [new AppError("unsupported_grant_type", "no"), BASIC, "unsupported_grant_type"],
      [new AppError("invalid_credentials", "no"), BASIC, "invalid_grant"],
      [new AppError("invalid_credentials", "no"), "basic  abc", "invalid_grant"],
      [new AppError("invalid_credentials", "no"), undefined, "invalid_client"],
      [new AppError("invalid_credentials", "no"), "Bearer abc", "invalid_client"],
      [new AppError("too_many_attempts", "wait"), BASIC, "invalid_grant"],
      [new AppError("payload_too_large", "big"), BASIC, "invalid_request"],
      [new AppError("unsupported_media_type", "json"), BASIC, "invalid_request"],
      [new AppError("not_acceptable", "xml"), BASIC, "invalid_request"],
      [new AppError("method_not_allowed", "GET"), BASIC, "invalid_request"],
      [new AppError("storage_error", "disk"), BASIC, undefined],
      [new AppError("outbox_full", "full"), BASIC, undefined],
    ];
    for (const [err, authorization, error] of cases)
      expect([err.code, authorization, tokenError(err, authorization)]).toEqual([
        err.code,
        authorization,
        error,
      ]);
  });

  it("challenges a refused bearer token with invalid_token, a missing one without an error code, the token endpoint with Basic", () => {
    const expired = new AppError("unauthorized", "token expired");
    expect(authenticateChallenge(expired, "Bearer abc", false)).toBe(
      'Bearer realm="pps-edge", error="invalid_token", error_description="token expired"',
    );
    expect(authenticateChallenge(expired, undefined, false)).toBe('Bearer realm="pps-edge"');
    expect(authenticateChallenge(expired, "Basic abc", false)).toBe('Bearer realm="pps-edge"');
    expect(authenticateChallenge(expired, "Bearer abc", true)).toMatch(/^Basic realm="pps-edge"/);
  });

  it("leaves out a description a quoted string cannot carry (RFC 6750 §3: no quote, backslash or non-ASCII)", () => {
    for (const message of ['say "hi"', "back\\slash", "Zugang abgelaufen – neu anmelden"])
      expect(authenticateChallenge(new AppError("unauthorized", message), "Bearer abc", false)).toBe(
        'Bearer realm="pps-edge", error="invalid_token"',
      );
  });
});
