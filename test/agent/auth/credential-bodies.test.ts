/**
 * The routes anyone may call with credentials in the body take a small body (http/body.ts
 * CREDENTIALS_BODY_BYTES, 8 KiB), not the megabyte the other routes take: a caller without any
 * credential cannot make the agent read and parse a large body. The refusal is the 413 of every body
 * limit, naming the body, and nothing is recorded; a real login still fits with room to spare.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CREDENTIALS_BODY_BYTES } from "../../../src/http/body.js";
import { ADMIN, BASIC, startTestAgent, type TestAgent, TOKEN_PATH } from "../../support/agent.js";

let t: TestAgent;
beforeAll(async () => {
  t = await startTestAgent();
});
afterAll(async () => t?.close());

const events = () =>
  (t.agent.db.sqlite.prepare("SELECT count(*) AS n FROM security_events").get() as { n: number }).n;

async function refusal(res: Response) {
  const body = (await res.json()) as { code: string; errors: Array<{ path: string }> };
  return [res.status, body.code, body.errors[0]?.path];
}

describe("bodies of the credential routes", () => {
  it("the token endpoint refuses a body over 8 KiB with 413, with or without a client credential", async () => {
    const before = events();
    const form = new URLSearchParams({ grant_type: "password", username: ADMIN, password: "x".repeat(9000) });
    for (const headers of <Array<Record<string, string>>>[
      { "Content-Type": "application/x-www-form-urlencoded" },
      { Authorization: BASIC, "Content-Type": "application/x-www-form-urlencoded" },
    ]) {
      const res = await t.request(TOKEN_PATH, { method: "POST", headers, body: form.toString() });
      expect(await refusal(res)).toEqual([413, "payload_too_large", "(body)"]);
    }
    expect(events()).toBe(before);
  });

  it("the screen sign-in refuses a body over 8 KiB with 413", async () => {
    const res = await t.request("/screen/front/session", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: ADMIN, password: "x".repeat(CREDENTIALS_BODY_BYTES) }),
    });
    expect(await refusal(res)).toEqual([413, "payload_too_large", "(body)"]);
  });

  it("the longest user name and password allowed fit, percent-encoded, and log in", async () => {
    const name = "ü".repeat(128);
    const password = "€".repeat(256);
    await t.agent.services.auth.addUser(name, password, "integration");
    const form = new URLSearchParams({ grant_type: "password", username: name, password }).toString();
    expect(form.length).toBeLessThan(CREDENTIALS_BODY_BYTES);
    const res = await t.request(TOKEN_PATH, {
      method: "POST",
      headers: { Authorization: BASIC, "Content-Type": "application/x-www-form-urlencoded" },
      body: form,
    });
    expect(res.status).toBe(200);
  });
});
