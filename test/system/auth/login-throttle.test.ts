/**
 * Login throttling at the token endpoint (docs/security.md#login-policy): the 6th failure of one user name from
 * one address is 429 with Retry-After; the failures are logged and counted; the same user logs in from
 * another address meanwhile; the pair is free again after the lock time, and a success resets it.
 * The client's address is the socket's: in-process requests pass a stand-in `incoming` socket.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, ADMIN_PASSWORD, BASIC, SCRAPE, startTestAgent, type TestAgent } from "../../support/agent.js";
import { LogLines } from "../../support/log-lines.js";

const TOKEN = "/api-gateway/auth-service/platform-auth/oauth/token";
const WRONG = "not-the-password-123";

let t: TestAgent;
const logs = new LogLines();
beforeAll(async () => {
  t = await startTestAgent({ log: { level: "info" } }, { logTo: logs });
});
afterAll(async () => t.close());

/** A password grant as if sent from `address` (the socket's remote address). */
function login(address: string, password: string, username = ADMIN, auth = BASIC) {
  const init = {
    method: "POST",
    headers: { Authorization: auth, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "password", username, password }).toString(),
  };
  const env = { incoming: { readableEnded: true, socket: { remoteAddress: address } } };
  return t.agent.app.request(TOKEN, init, env);
}

async function metric(name: string): Promise<string[]> {
  const text = await (await t.request("/metrics", SCRAPE)).text();
  return text.split("\n").filter((l) => l.startsWith(name));
}

const failures = () =>
  logs.lines
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.msg !== undefined && /^login (failed|refused)$/.test(String(l.msg)));

describe("login throttling", () => {
  it("refuses the 6th attempt of a user from one address with 429 and Retry-After; logs and counts", async () => {
    for (let i = 0; i < 5; i++) expect((await login("10.0.0.66", WRONG)).status).toBe(401);
    const res = await login("10.0.0.66", ADMIN_PASSWORD); // even the right password
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("900");
    const body = (await res.json()) as { code: string; details: { retryAfterSeconds: number } };
    expect(body.code).toBe("too_many_attempts");
    expect(body.details.retryAfterSeconds).toBe(900);

    const lines = failures().filter((l) => l.address === "10.0.0.66");
    expect(lines).toHaveLength(6);
    expect(lines[0]).toMatchObject({ level: "warn", user: ADMIN, reason: "wrong_password", via: "http" });
    expect(lines[4]).toMatchObject({ reason: "wrong_password", locked: true });
    expect(lines[5]).toMatchObject({ reason: "throttled", msg: "login refused" });
    expect(logs.text()).not.toContain(WRONG);
    expect(logs.text()).not.toContain(ADMIN_PASSWORD);
    expect(await metric("auth_login_failures_total")).toEqual(
      expect.arrayContaining([
        'auth_login_failures_total{reason="wrong_password"} 5',
        'auth_login_failures_total{reason="throttled"} 1',
      ]),
    );
    expect(await metric("auth_login_throttled_total")).toEqual(["auth_login_throttled_total 1"]);
  });

  it("still lets the same user in from another address", async () => {
    expect((await login("10.0.0.67", ADMIN_PASSWORD)).status).toBe(200);
    expect((await login("10.0.0.66", ADMIN_PASSWORD)).status).toBe(429);
  });

  it("lets the pair in again after the lock time (15 min)", async () => {
    t.clock.now += 14 * 60_000;
    const res = await login("10.0.0.66", ADMIN_PASSWORD);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    t.clock.now += 60_000;
    expect((await login("10.0.0.66", ADMIN_PASSWORD)).status).toBe(200);
  });

  it("forgets a pair's failures on a success", async () => {
    for (let i = 0; i < 4; i++) expect((await login("10.0.0.68", WRONG)).status).toBe(401);
    expect((await login("10.0.0.68", ADMIN_PASSWORD)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login("10.0.0.68", WRONG)).status).toBe(401);
    expect((await login("10.0.0.68", ADMIN_PASSWORD)).status).toBe(200);
  });

  it("names the reason: unknown user, bad client credential", async () => {
    expect((await login("10.0.0.69", WRONG, "nobody")).status).toBe(401);
    expect((await login("10.0.0.69", ADMIN_PASSWORD, ADMIN, "Basic bm9wZTpub3Bl")).status).toBe(401);
    const lines = failures().filter((l) => l.address === "10.0.0.69");
    expect(lines.map((l) => [l.user, l.reason])).toEqual([
      ["nobody", "unknown_user"],
      [ADMIN, "bad_client"],
    ]);
  });

  it("counts a wrong client credential for the address, not for the user name", async () => {
    const wrongClient = "Basic bm9wZTpub3Bl";
    for (let i = 0; i < 6; i++)
      expect((await login("10.0.0.72", ADMIN_PASSWORD, ADMIN, wrongClient)).status).toBe(401);
    expect((await login("10.0.0.72", ADMIN_PASSWORD)).status).toBe(200);
  });

  it("locks an address after 20 failures across user names", async () => {
    for (let i = 0; i < 20; i++) expect((await login("10.0.0.70", WRONG, `guess${i}`)).status).toBe(401);
    expect((await login("10.0.0.70", ADMIN_PASSWORD)).status).toBe(429);
    expect((await login("10.0.0.71", ADMIN_PASSWORD)).status).toBe(200);
  });
});

describe("the client's address over a real socket", () => {
  it("is the socket's, not X-Forwarded-For", async () => {
    const lines = new LogLines();
    const a = await startTestAgent({ log: { level: "info" } }, { listen: true, logTo: lines });
    try {
      const res = await fetch(`http://127.0.0.1:${a.agent.address?.port}${TOKEN}`, {
        method: "POST",
        headers: {
          Authorization: BASIC,
          "Content-Type": "application/x-www-form-urlencoded",
          "X-Forwarded-For": "10.9.9.9",
        },
        body: new URLSearchParams({ grant_type: "password", username: ADMIN, password: WRONG }).toString(),
      });
      expect(res.status).toBe(401);
      const line = lines.lines
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l.msg === "login failed");
      expect(String(line?.address)).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
    } finally {
      await a.close();
    }
  });
});
