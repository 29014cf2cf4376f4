/**
 * Wrong screen keys (docs/security.md#login-policy): throttled per client address like wrong passwords,
 * logged, counted and recorded as security events; the right key is refused too while the address is
 * locked, and another address still opens the page.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCREEN_KEYS_FILE } from "../../../src/services/auth/screen-sessions.js";
import { SCRAPE, startTestAgent, type TestAgent } from "../../support/agent.js";

let t: TestAgent;
let key = "";
beforeAll(async () => {
  t = await startTestAgent({}, { listen: true });
  key =
    (JSON.parse(readFileSync(join(t.dir, SCREEN_KEYS_FILE), "utf8")) as Record<string, string>).front ?? "";
});
afterAll(async () => t.close());

describe("wrong screen keys", () => {
  it("are throttled, logged and recorded; the right key from that address waits out the lock too", async () => {
    const base = `http://127.0.0.1:${t.agent.address?.port}`;
    const open = (k: string) =>
      fetch(`${base}/screen/front?key=${encodeURIComponent(k)}`, { redirect: "manual" });
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) answers.push((await open(`wrong-${i}`)).status);
    // five refused (a redirect to the refusal), then the address is locked for this seat's key
    expect(answers).toEqual([303, 303, 303, 303, 303, 429]);
    const locked = await open(key);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await locked.json()).toMatchObject({ code: "too_many_attempts" });
    // the delays of the 3rd to 5th failure were waited (the test clock's sleep records them)
    expect(t.sleeps.length).toBeGreaterThanOrEqual(3);

    const events = t.agent.db.sqlite
      .prepare("SELECT kind, detail FROM security_events WHERE channel = 'screen' ORDER BY id")
      .all() as Array<{ kind: string; detail: string }>;
    expect(
      events.filter((e) => e.kind === "login_failed" && e.detail.includes("wrong_screen_key")),
    ).toHaveLength(5);
    expect(events.filter((e) => e.kind === "login_throttled")).toHaveLength(1);
    const metrics = await (await fetch(`${base}/metrics`, SCRAPE)).text();
    expect(metrics).toMatch(/auth_login_failures_total\{reason="wrong_screen_key"\} 5/);

    // the lock ends with its time
    t.clock.now += 16 * 60_000;
    expect((await open(key)).headers.get("location")).toBe("/screen/front");
  });
});
