/**
 * Conformance: "Authentication" (token request and response, the refresh token's use, which the spec
 * leaves not shown) and "Errors" (token 200/401, any authenticated call 401). Over HTTP on a listening
 * agent, as a client on the network calls it. There is no token over MQTT: MQTT requests are
 * authorised by the broker's own credentials and ACL (docs/mqtt.md), so these rows are HTTP only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, ADMIN_PASSWORD, BASIC, TOKEN_PATH } from "../support/agent.js";
import type { Json } from "../support/station.js";
import { type Central, startCentral } from "./support/central.js";
import { CATALOG } from "./support/endpoints.js";

let c: Central;
let base: string;

beforeAll(async () => {
  c = await startCentral();
  base = `http://127.0.0.1:${c.t.agent.address?.port}`;
});
afterAll(async () => c?.close());

const grant = (form: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${base}${TOKEN_PATH}`, {
    method: "POST",
    headers: { Authorization: BASIC, "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form).toString(),
  });

async function login(): Promise<Json> {
  const res = await grant({ grant_type: "password", username: ADMIN, password: ADMIN_PASSWORD });
  expect(res.status).toBe(200);
  return (await res.json()) as Json;
}

const refresh = (token: Json) => grant({ grant_type: "refresh_token", refresh_token: token.refresh_token });
const works = async (token: Json) =>
  (await fetch(`${base}${CATALOG}`, { headers: { Authorization: `Bearer ${token.access_token}` } })).status;

describe("token endpoint", () => {
  it("Token: grant_type password, form parameters, Basic client credential → 200 {access_token, token_type bearer, refresh_token, expires_in, scope, user_id, jti}", async () => {
    const body = await login();
    expect(body).toEqual({
      access_token: expect.any(String),
      token_type: "bearer",
      refresh_token: expect.any(String),
      expires_in: expect.any(Number),
      scope: "admin",
      user_id: expect.any(Number),
      jti: expect.any(String),
    });
    expect(Number.isInteger(body.expires_in) && Number.isInteger(body.user_id)).toBe(true);
    expect(body.expires_in).toBeGreaterThan(0);
  });

  it("Token: Content-Type header | must match how parameters are passed → a form body sent as application/json: 415 unsupported_media_type naming Content-Type (decision)", async () => {
    const res = await grant(
      { grant_type: "password", username: ADMIN, password: ADMIN_PASSWORD },
      { "Content-Type": "application/json" },
    );
    const body = (await res.json()) as Json;
    expect([res.status, body.code, body.errors[0].path]).toEqual([
      415,
      "unsupported_media_type",
      "Content-Type",
    ]);
  });

  it("Token: Accept header | response content type follows it → application/json, */* or none: JSON; application/xml: 406", async () => {
    for (const accept of ["application/json", "*/*", ""]) {
      const res = await grant(
        { grant_type: "password", username: ADMIN, password: ADMIN_PASSWORD },
        { Accept: accept },
      );
      expect([accept, res.status, res.headers.get("content-type")]).toEqual([
        accept,
        200,
        expect.stringMatching(/^application\/json/),
      ]);
    }
    const xml = await grant(
      { grant_type: "password", username: ADMIN, password: ADMIN_PASSWORD },
      { Accept: "application/xml" },
    );
    expect([xml.status, ((await xml.json()) as Json).code]).toEqual([406, "not_acceptable"]);
  });

  it("Token: Authorization header | Basic <CLIENT_CREDENTIAL> → missing, or a bearer instead: 401 invalid_credentials", async () => {
    const form = new URLSearchParams({ grant_type: "password", username: ADMIN, password: ADMIN_PASSWORD });
    const none = await fetch(`${base}${TOKEN_PATH}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
    expect([none.status, ((await none.json()) as Json).code]).toEqual([401, "invalid_credentials"]);
    const bearer = await grant(
      { grant_type: "password", username: ADMIN, password: ADMIN_PASSWORD },
      { Authorization: `Bearer ${(await login()).access_token}` },
    );
    expect(bearer.status).toBe(401);
  });

  it("Token: Form parameter grant_type | must be password → another grant (client_credentials): 400 unsupported_grant_type naming grant_type; none: 400 invalid_request naming it (decision)", async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [
        { grant_type: "client_credentials", username: ADMIN, password: ADMIN_PASSWORD },
        "unsupported_grant_type",
      ],
      [{ username: ADMIN, password: ADMIN_PASSWORD }, "invalid_request"],
    ];
    for (const [form, code] of cases) {
      const res = await grant(form);
      const body = (await res.json()) as Json;
      expect([res.status, body.code, body.errors[0].path]).toEqual([400, code, "grant_type"]);
    }
  });

  it("Token: Form parameter username, password → missing: 400 invalid_request naming the parameter (decision)", async () => {
    for (const missing of ["username", "password"]) {
      const form: Record<string, string> = {
        grant_type: "password",
        username: ADMIN,
        password: ADMIN_PASSWORD,
      };
      delete form[missing];
      const body = (await (await grant(form)).json()) as Json;
      expect([body.status, body.code, body.errors[0].path]).toEqual([400, "invalid_request", missing]);
    }
  });

  it("Authentication: Workflow 3 | When a call returns 401 because the token has expired, request a new token → the new token works", async () => {
    const old = await login();
    expect(await works(old)).toBe(200);
    const start = c.t.clock.now;
    c.t.clock.now += ((old.expires_in as number) + 1) * 1000;
    try {
      expect(await works(old)).toBe(401);
      const fresh = await login();
      expect(await works(fresh)).toBe(200);
    } finally {
      c.t.clock.now = start;
    }
  });

  it("Token: username and password may be passed as URL parameters", async () => {
    const query = new URLSearchParams({ grant_type: "password", username: ADMIN, password: ADMIN_PASSWORD });
    const res = await fetch(`${base}${TOKEN_PATH}?${query}`, {
      method: "POST",
      headers: { Authorization: BASIC },
    });
    expect(res.status).toBe(200);
  });

  it("Token: 401 not authorized (wrong password, wrong client credential)", async () => {
    expect(
      (await grant({ grant_type: "password", username: ADMIN, password: "wrong-password" })).status,
    ).toBe(401);
    const badClient = await grant(
      { grant_type: "password", username: ADMIN, password: ADMIN_PASSWORD },
      { Authorization: `Basic ${Buffer.from("someone:else").toString("base64")}` },
    );
    expect(badClient.status).toBe(401);
  });

  it("Token request: an OAuth 2.0 password grant → its refusals are OAuth 2.0 error answers (RFC 6749 §5.2: `error` invalid_request, invalid_client, invalid_grant, unsupported_grant_type), the agent's own members beside `error`", async () => {
    const badClient = `Basic ${Buffer.from("someone:else").toString("base64")}`;
    const used = await login();
    expect((await refresh(used)).status).toBe(200);
    const cases: Array<[string, Record<string, string>, Record<string, string>, number, string, string]> = [
      [
        "no username",
        { grant_type: "password", password: ADMIN_PASSWORD },
        {},
        400,
        "invalid_request",
        "invalid_request",
      ],
      [
        "no grant_type",
        { username: ADMIN, password: ADMIN_PASSWORD },
        {},
        400,
        "invalid_request",
        "invalid_request",
      ],
      [
        "another grant",
        { grant_type: "client_credentials" },
        {},
        400,
        "unsupported_grant_type",
        "unsupported_grant_type",
      ],
      [
        "wrong password",
        { grant_type: "password", username: ADMIN, password: "wrong-password" },
        {},
        401,
        "invalid_credentials",
        "invalid_grant",
      ],
      [
        "unknown user",
        { grant_type: "password", username: "nobody", password: "wrong-password" },
        {},
        401,
        "invalid_credentials",
        "invalid_grant",
      ],
      [
        "wrong client credential",
        { grant_type: "password", username: ADMIN, password: ADMIN_PASSWORD },
        { Authorization: badClient },
        401,
        "invalid_credentials",
        "invalid_grant",
      ],
      [
        "refresh token used before",
        { grant_type: "refresh_token", refresh_token: used.refresh_token },
        {},
        401,
        "invalid_credentials",
        "invalid_grant",
      ],
      [
        "no client credential",
        { grant_type: "password", username: ADMIN, password: ADMIN_PASSWORD },
        { Authorization: "" },
        401,
        "invalid_credentials",
        "invalid_client",
      ],
      [
        "a bearer for the client credential",
        { grant_type: "password", username: ADMIN, password: ADMIN_PASSWORD },
        { Authorization: `Bearer ${"a".repeat(43)}` },
        401,
        "invalid_credentials",
        "invalid_client",
      ],
      [
        "a JSON body",
        { grant_type: "password" },
        { "Content-Type": "application/json" },
        415,
        "unsupported_media_type",
        "invalid_request",
      ],
    ];
    for (const [what, form, headers, status, code, error] of cases) {
      const res = await grant(form, headers);
      const body = (await res.json()) as Json;
      expect([what, res.status, body.error, body.code, body.status]).toEqual([
        what,
        status,
        error,
        code,
        status,
      ]);
      expect([what, res.headers.get("content-type")]).toEqual([
        what,
        expect.stringMatching(/^application\/json/),
      ]);
      if (status === 401)
        expect([what, res.headers.get("www-authenticate")]).toEqual([
          what,
          expect.stringMatching(/^Basic realm=/),
        ]);
    }
  });

  it('Errors: any authenticated call | 401 | token invalid or expired → WWW-Authenticate: Bearer error="invalid_token" (RFC 6750 §3.1); token missing → Bearer without an error code', async () => {
    const token = await login();
    const start = c.t.clock.now;
    c.t.clock.now += ((token.expires_in as number) + 1) * 1000;
    try {
      for (const authorization of [
        `Bearer ${token.access_token}`,
        "Bearer not-a-token-at-all-000000",
        "Bearer !",
      ]) {
        const res = await fetch(`${base}${CATALOG}`, { headers: { Authorization: authorization } });
        expect([authorization, res.status, res.headers.get("www-authenticate")]).toEqual([
          authorization,
          401,
          expect.stringMatching(
            /^Bearer realm="pps-edge", error="invalid_token"(, error_description="[^"]+")?$/,
          ),
        ]);
        expect(((await res.json()) as Json).error).toBeUndefined();
      }
    } finally {
      c.t.clock.now = start;
    }
    const none = await fetch(`${base}${CATALOG}`);
    expect([none.status, none.headers.get("www-authenticate")]).toEqual([401, 'Bearer realm="pps-edge"']);
  });

  it("Errors: any authenticated call | 401 | token missing, invalid or expired", async () => {
    expect((await fetch(`${base}${CATALOG}`)).status).toBe(401);
    expect(await works({ access_token: "not-a-token-at-all-000000" })).toBe(401);
  });
});

describe("refresh token (use not shown: docs/decisions.md)", () => {
  it("Refresh: a refresh token works once and is replaced (rotation); the new access token works", async () => {
    const first = await login();
    const res = await refresh(first);
    expect(res.status).toBe(200);
    const second = (await res.json()) as Json;
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(await works(second)).toBe(200);
  });

  it("Refresh: a reused refresh token revokes its family (the tokens of the same login), not the user's other logins (another client of the same user)", async () => {
    const clientA = await login();
    const clientB = await login();
    const renewedA = (await (await refresh(clientA)).json()) as Json;
    expect(await works(renewedA)).toBe(200);

    expect((await refresh(clientA)).status).toBe(401);
    expect(await works(renewedA)).toBe(401);
    expect((await refresh(renewedA)).status).toBe(401);

    expect(await works(clientB)).toBe(200);
    const renewedB = await refresh(clientB);
    expect(renewedB.status).toBe(200);
    expect(await works((await renewedB.json()) as Json)).toBe(200);
  });

  it("Refresh: the reuse is in the security event log with the family, scope family", async () => {
    const events = (await (
      await fetch(`${base}/station/security-events?kind=token_revoked`, {
        headers: { Authorization: `Bearer ${(await login()).access_token}` },
      })
    ).json()) as { events: Json[] };
    const reuse = events.events.find((e) => e.detail?.reason === "refresh_token_reused");
    expect(reuse?.detail).toMatchObject({ scope: "family", family: expect.any(String) });
  });
});
