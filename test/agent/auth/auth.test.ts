import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN,
  ADMIN_PASSWORD,
  BASIC,
  CLIENT_ID,
  startTestAgent,
  type TestAgent,
} from "../../support/agent.js";

const TOKEN = "/api-gateway/auth-service/platform-auth/oauth/token";
const CATALOG = "/api-gateway/mdm-service/wms-masterdata/catalog";
const FORM = "application/x-www-form-urlencoded";

let t: TestAgent;
beforeAll(async () => {
  t = await startTestAgent({ tokenTtlSeconds: 60 });
});
afterAll(async () => t.close());

function form(params: Record<string, string>): string {
  return new URLSearchParams(params).toString();
}

async function tokenRequest(params: Record<string, string>, auth = BASIC, query = "") {
  return t.request(`${TOKEN}${query}`, {
    method: "POST",
    headers: { Authorization: auth, "Content-Type": FORM },
    body: form(params),
  });
}

describe("token endpoint (spec: Authentication)", () => {
  it("issues a token for a form-urlencoded password grant with every documented field", async () => {
    const res = await tokenRequest({ grant_type: "password", username: ADMIN, password: ADMIN_PASSWORD });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(
      ["access_token", "expires_in", "jti", "refresh_token", "scope", "token_type", "user_id"].sort(),
    );
    expect(body.token_type).toBe("bearer");
    expect(body.expires_in).toBe(60);
    expect(typeof body.user_id).toBe("number");
    expect(body.access_token).not.toBe(body.refresh_token);
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("accepts username and password as URL parameters", async () => {
    const query = `?${form({ grant_type: "password", username: ADMIN, password: ADMIN_PASSWORD })}`;
    const res = await t.request(`${TOKEN}${query}`, { method: "POST", headers: { Authorization: BASIC } });
    expect(res.status).toBe(200);
  });

  it("answers every credential failure with the same 401", async () => {
    const wrongClient = `Basic ${Buffer.from(`${CLIENT_ID}:nope`).toString("base64")}`;
    const wrongId = `Basic ${Buffer.from(`other:${"x".repeat(10)}`).toString("base64")}`;
    const cases = [
      await tokenRequest({ grant_type: "password", username: ADMIN, password: "wrong-password" }),
      await tokenRequest({ grant_type: "password", username: "nobody", password: ADMIN_PASSWORD }),
      await tokenRequest({ grant_type: "password", username: ADMIN, password: ADMIN_PASSWORD }, wrongClient),
      await tokenRequest({ grant_type: "password", username: ADMIN, password: ADMIN_PASSWORD }, wrongId),
      await tokenRequest({ grant_type: "password", username: ADMIN, password: ADMIN_PASSWORD }, ""),
      await tokenRequest({ grant_type: "password", username: ADMIN, password: ADMIN_PASSWORD }, "Bearer abc"),
    ];
    const bodies = await Promise.all(
      cases.map(async (r) => {
        const { requestId: _ignored, ...body } = (await r.json()) as Record<string, unknown>;
        return { status: r.status, body };
      }),
    );
    // a Basic credential sent: one answer whichever part was wrong; none sent: the same but for the
    // OAuth error, which says only what the caller knows (RFC 6749 §5.2 invalid_client)
    const withClient = bodies.slice(0, 4);
    for (const b of withClient) expect(b).toEqual(bodies[0]);
    expect(bodies[0]).toMatchObject({
      status: 401,
      body: { code: "invalid_credentials", error: "invalid_grant" },
    });
    for (const b of bodies.slice(4))
      expect(b).toEqual({ ...bodies[0], body: { ...bodies[0]?.body, error: "invalid_client" } });
    for (const r of cases)
      expect(r.headers.get("www-authenticate")).toBe('Basic realm="pps-edge", charset="UTF-8"');
  });

  it("answers 400 for a missing or unsupported grant_type", async () => {
    const missing = await tokenRequest({ username: ADMIN, password: ADMIN_PASSWORD });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({
      code: "invalid_request",
      error: "invalid_request",
      errors: [{ path: "grant_type" }],
    });
    const other = await tokenRequest({ grant_type: "client_credentials" });
    expect(other.status).toBe(400);
    expect(await other.json()).toMatchObject({
      code: "unsupported_grant_type",
      error: "unsupported_grant_type",
      errors: [{ path: "grant_type" }],
    });
  });

  it("answers 400 naming a missing username or password", async () => {
    const res = await tokenRequest({ grant_type: "password", username: ADMIN });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "invalid_request", errors: [{ path: "password" }] });
  });

  it("refuses a JSON body with 415", async () => {
    const res = await t.request(TOKEN, {
      method: "POST",
      headers: { Authorization: BASIC, "Content-Type": "application/json" },
      body: JSON.stringify({ grant_type: "password" }),
    });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ code: "unsupported_media_type" });
  });

  it("renews with a refresh token once; a reused refresh token ends that login's tokens, not the user's other logins", async () => {
    const first = (await (
      await tokenRequest({ grant_type: "password", username: ADMIN, password: ADMIN_PASSWORD })
    ).json()) as { access_token: string; refresh_token: string };
    const otherLogin = (await (
      await tokenRequest({ grant_type: "password", username: ADMIN, password: ADMIN_PASSWORD })
    ).json()) as { access_token: string; refresh_token: string };
    const renewed = await tokenRequest({ grant_type: "refresh_token", refresh_token: first.refresh_token });
    expect(renewed.status).toBe(200);
    const second = (await renewed.json()) as { access_token: string; refresh_token: string };
    expect(second.access_token).not.toBe(first.access_token);
    const ok = await t.request(CATALOG, { headers: { Authorization: `Bearer ${second.access_token}` } });
    expect(ok.status).toBe(200);

    const replay = await tokenRequest({ grant_type: "refresh_token", refresh_token: first.refresh_token });
    expect(replay.status).toBe(401);
    const after = await t.request(CATALOG, { headers: { Authorization: `Bearer ${second.access_token}` } });
    expect(after.status).toBe(401);
    const other = await t.request(CATALOG, {
      headers: { Authorization: `Bearer ${otherLogin.access_token}` },
    });
    expect(other.status).toBe(200);
    const otherRenewed = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: otherLogin.refresh_token,
    });
    expect(otherRenewed.status).toBe(200);
  });

  it("refuses an access token used as a refresh token", async () => {
    const tok = (await (
      await tokenRequest({ grant_type: "password", username: ADMIN, password: ADMIN_PASSWORD })
    ).json()) as { access_token: string };
    const res = await tokenRequest({ grant_type: "refresh_token", refresh_token: tok.access_token });
    expect(res.status).toBe(401);
  });
});

describe("bearer tokens on every other endpoint", () => {
  it("401 without, with a malformed, or with an unknown token", async () => {
    for (const header of [undefined, "Bearer", "Bearer !!!", `Bearer ${"a".repeat(43)}`, "Basic abc"]) {
      const res = await t.request(CATALOG, { headers: header ? { Authorization: header } : {} });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toContain("Bearer");
      expect(await res.json()).toMatchObject({ status: 401, code: "unauthorized" });
    }
  });

  it("a token works until it expires, then gets 401; a refresh token renews it", async () => {
    const tok = (await (
      await tokenRequest({ grant_type: "password", username: ADMIN, password: ADMIN_PASSWORD })
    ).json()) as { access_token: string; refresh_token: string };
    const auth = { Authorization: `Bearer ${tok.access_token}` };
    expect((await t.request(CATALOG, { headers: auth })).status).toBe(200);
    t.clock.now += 59_000;
    expect((await t.request(CATALOG, { headers: auth })).status).toBe(200);
    t.clock.now += 1_000;
    const expired = await t.request(CATALOG, { headers: auth });
    expect(expired.status).toBe(401);
    expect(await expired.json()).toMatchObject({ code: "unauthorized", message: "token expired" });
    const renewed = await tokenRequest({ grant_type: "refresh_token", refresh_token: tok.refresh_token });
    expect(renewed.status).toBe(200);
    const fresh = (await renewed.json()) as { access_token: string };
    expect(
      (await t.request(CATALOG, { headers: { Authorization: `Bearer ${fresh.access_token}` } })).status,
    ).toBe(200);
  });
});
