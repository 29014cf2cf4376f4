/**
 * A supervisor at the seat (docs/station.md#supervisor-at-the-seat): the station box's key session acts
 * with an operator's rights; a tap beyond them (a mode switch) is taken when it carries a supervisor's
 * badge or PIN, once, recorded with both names; wrong PINs are throttled like logins.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SCREEN_KEYS_FILE } from "../../../src/services/auth/screen-sessions.js";
import type { ScreenState } from "../../../src/station/screen/state/types.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { ok } from "../../support/station.js";

let t: TestAgent;
let keyCookie = "";
let badge = "";
const PIN = "482915";
const ACTIONS = "/station/seats/front/screen/actions";

beforeAll(async () => {
  t = await startTestAgent();
  const auth = t.agent.services.auth;
  await auth.addUser("sam", "sam-password-1234", "admin");
  await auth.setSupervisorPin("sam", PIN);
  badge = auth.newSupervisorBadge("sam");
  await auth.addUser("olga", "olga-password-1234", "operator");
  await auth.setSupervisorPin("olga", "730261");
  const keys = JSON.parse(readFileSync(join(t.dir, SCREEN_KEYS_FILE), "utf8")) as Record<string, string>;
  const res = await t.request(`/screen/front?key=${encodeURIComponent(keys.front ?? "")}`);
  keyCookie = (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  await ok(t.call("POST", "/station/seats/front/login", { user: "alice" }));
});
afterAll(async () => t.close());
beforeEach(async () => {
  await ok(t.call("PUT", "/station/mode", { mode: "pick" }));
});

/** A tap from the station box's own display (its key session). */
function tap(body: Record<string, unknown>) {
  return t.request(ACTIONS, {
    method: "POST",
    headers: { cookie: keyCookie, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

const mode = async () => ((await (await t.call("GET", "/station/state")).json()) as { mode: string }).mode;
const events = () => t.agent.services.securityLog.list({ limit: 1000 });

describe("a supervisor at the seat", () => {
  it("the state names the taps that need a supervisor (the mode switch, skip label)", async () => {
    const s = (await (
      await t.request("/station/seats/front/screen", { headers: { cookie: keyCookie } })
    ).json()) as ScreenState;
    expect(s.supervised).toEqual(expect.arrayContaining(["mode", "skip_label"]));
    expect(s.supervised).not.toContain("confirm");
    expect(s.allowed.modes).toEqual(["put", "audit"]);
  });

  it("a supervisor's PIN authorises the mode switch once, recorded with the operator's and the supervisor's names", async () => {
    const res = await tap({ type: "mode", mode: "put", supervisor: { pin: PIN } });
    expect(res.status).toBe(200);
    expect(await mode()).toBe("put");
    const e = events().find((x) => x.kind === "supervisor_authorised");
    expect(e).toMatchObject({
      username: "sam",
      channel: "screen",
      detail: { operator: "alice", seat: "front", action: "mode", result: "done" },
    });
    // one action only: the next switch without a credential is refused and changes nothing
    const again = await tap({ type: "mode", mode: "audit" });
    expect(again.status).toBe(403);
    expect(await mode()).toBe("put");
  });

  it("a supervisor's badge authorises it too; a badge that is only a name is refused", async () => {
    const res = await tap({ type: "mode", mode: "audit", supervisor: { badge } });
    expect(res.status).toBe(200);
    expect(await mode()).toBe("audit");
    const named = await tap({ type: "mode", mode: "put", supervisor: { badge: "SUP-sam" } });
    expect(named.status).toBe(403);
    expect(((await named.json()) as { details: { supervisor: string } }).details.supervisor).toBe("refused");
    expect(await mode()).toBe("audit");
  });

  it("a wrong PIN is refused and changes nothing; a supervisor whose role may not switch modes is refused too", async () => {
    const wrong = await tap({ type: "mode", mode: "put", supervisor: { pin: "111112" } });
    expect(wrong.status).toBe(403);
    const body = (await wrong.json()) as { code: string; errors: Array<{ path: string }> };
    expect(body.code).toBe("forbidden");
    expect(body.errors[0]?.path).toBe("supervisor");
    const operatorPin = await tap({ type: "mode", mode: "put", supervisor: { pin: "730261" } });
    expect(operatorPin.status).toBe(403);
    expect(await mode()).toBe("pick");
    expect(
      events().some((e) => e.kind === "login_failed" && e.detail?.reason === "wrong_supervisor_credential"),
    ).toBe(true);
  });

  it("bad credential shapes are refused as bad input, naming the field, and change nothing", async () => {
    for (const supervisor of [{}, { pin: PIN, badge }, { pin: 482915 }, { name: "sam" }]) {
      const res = await tap({ type: "mode", mode: "put", supervisor });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { errors: Array<{ path: string }> };
      expect(body.errors[0]?.path).toMatch(/^supervisor/);
    }
    expect(await mode()).toBe("pick");
  });

  it("every tap the state shows as a supervisor's is taken with a supervisor's credential, never answered 403", async () => {
    const s = (await (
      await t.request("/station/seats/front/screen", { headers: { cookie: keyCookie } })
    ).json()) as ScreenState;
    const bodies: Record<string, Record<string, unknown>> = {
      mode: { mode: "put" },
      skip_label: { bin: "1" },
    };
    for (const type of s.supervised) {
      const res = await tap({ type, ...bodies[type], supervisor: { pin: PIN } });
      // taken to the engine or the operation: done, or refused for what it is (409), never a 403
      expect([type, res.status === 403]).toEqual([type, false]);
    }
  });
  it("(last: it locks the seat) wrong PINs are throttled like logins: after five, even the right PIN waits", async () => {
    for (let i = 0; i < 5; i++) {
      const res = await tap({ type: "mode", mode: "put", supervisor: { pin: `90${i}817` } });
      expect(res.status).toBe(403);
    }
    const locked = await tap({ type: "mode", mode: "put", supervisor: { pin: PIN } });
    expect(locked.status).toBe(429);
    expect(await mode()).toBe("pick");
    expect(events().some((e) => e.kind === "login_throttled")).toBe(true);
    expect(t.sleeps.length).toBeGreaterThan(0);
  });
});
