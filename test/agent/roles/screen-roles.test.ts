/**
 * The operator screen by role (docs/security.md#roles): operators and admins may use it, by bearer token or by
 * signing in on the screen; an integration user is refused with 403 `forbidden`, told only once the
 * password is right. A new role ends the sessions signed in before it. The station box's own display
 * (the seat's key) has no user and keeps working.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCREEN_KEYS_FILE } from "../../../src/services/auth/screen-sessions.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";

const PASSWORD = "a-long-test-password";
let t: TestAgent;

beforeAll(async () => {
  t = await startTestAgent();
  await t.agent.services.auth.addUser("ivy", PASSWORD, "integration");
  await t.agent.services.auth.addUser("otis", PASSWORD, "operator");
});
afterAll(async () => t.close());

const cookieOf = (res: Response) => (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
const signIn = (username: string, password = PASSWORD) =>
  t.request("/screen/front/session", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password }),
  });
const screen = (cookie: string) => t.request("/station/seats/front/screen", { headers: { cookie } });
const codeOf = async (res: Response) => [res.status, ((await res.json()) as { code: string }).code];

describe("the operator screen by role", () => {
  it("refuses an integration user's sign-in with 403 forbidden, a wrong password with 401 as before", async () => {
    expect(await codeOf(await signIn("ivy"))).toEqual([403, "forbidden"]);
    expect(await codeOf(await signIn("ivy", "wrong-password-123"))).toEqual([401, "invalid_credentials"]);
    const ok = await signIn("otis");
    expect(ok.status).toBe(200);
    expect((await screen(cookieOf(ok))).status).toBe(200);
  });

  it("ends an operator's screen session when the user gets another role", async () => {
    const cookie = cookieOf(await signIn("otis"));
    expect((await screen(cookie)).status).toBe(200);
    t.clock.now += 1000;
    t.agent.services.auth.setRole("otis", "integration");
    expect((await screen(cookie)).status).toBe(401);
    t.agent.services.auth.setRole("otis", "operator");
  });

  it("lets the seat's key session in: the station box's display has no user", async () => {
    const keys = JSON.parse(readFileSync(join(t.dir, SCREEN_KEYS_FILE), "utf8")) as Record<string, string>;
    const res = await t.request(`/screen/front?key=${encodeURIComponent(keys.front ?? "")}`);
    expect((await screen(cookieOf(res))).status).toBe(200);
  });
});
