/**
 * Who may use the operator screen: the seat's screen key (file 0600 in the data folder) is exchanged
 * for an HttpOnly SameSite=Strict session cookie bound to that seat; an API user may sign in with a
 * password for the same kind of session. A screen session reads its seat's state and acts at its seat,
 * and nothing else: every other route refuses it (401), another seat's screen refuses it (403).
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  SCREEN_KEYS_FILE,
  USER_SESSION_MAX_MS,
  USER_SESSION_MS,
} from "../../../src/services/auth/screen-sessions.js";
import { ADMIN, ADMIN_PASSWORD, startTestAgent, type TestAgent } from "../../support/agent.js";
import { ITEM } from "../../support/station.js";

let t: TestAgent;
let keys: Record<string, string>;

beforeAll(async () => {
  t = await startTestAgent();
  keys = JSON.parse(readFileSync(join(t.dir, SCREEN_KEYS_FILE), "utf8"));
});
afterAll(async () => t.close());

const cookieOf = (res: Response) => (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "";

async function keySession(seat = "front"): Promise<string> {
  const res = await t.request(`/screen/${seat}?key=${encodeURIComponent(keys[seat] ?? "")}`);
  expect([res.status, res.headers.get("location")]).toEqual([303, `/screen/${seat}`]);
  return cookieOf(res);
}

const get = (path: string, cookie: string) => t.request(path, { headers: { cookie } });
const post = (path: string, cookie: string, body: unknown, method = "POST") =>
  t.request(path, {
    method,
    headers: { cookie, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

describe("screen keys", () => {
  it("one per seat, generated into the data folder, readable by the owner only", () => {
    expect(Object.keys(keys).sort()).toEqual(["back", "front"]);
    expect(statSync(join(t.dir, SCREEN_KEYS_FILE)).mode & 0o777).toBe(0o600);
  });

  it("the key is exchanged for a session cookie: HttpOnly, SameSite=Strict, Path=/, key gone from the URL", async () => {
    const res = await t.request(`/screen/front?key=${keys.front}`);
    const set = res.headers.get("set-cookie") ?? "";
    expect(set).toMatch(/^pps_screen_front=[\w-]+;/);
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/SameSite=Strict/);
    expect(set).toMatch(/Path=\//);
    expect(res.headers.get("location")).toBe("/screen/front");
    // stored as a digest, never as the cookie's value
    const token = cookieOf(res).split("=")[1] ?? "";
    const rows = t.agent.db.sqlite.prepare("SELECT token_hash FROM screen_sessions").all() as Array<{
      token_hash: string;
    }>;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
  });

  it("a wrong key, or another seat's key, opens nothing", async () => {
    for (const [seat, key] of [
      ["front", "nope-nope-nope-nope"],
      ["front", keys.back],
    ]) {
      const res = await t.request(`/screen/${seat}?key=${key}`);
      expect([res.status, res.headers.get("location"), res.headers.get("set-cookie")]).toEqual([
        303,
        `/screen/${seat}#key-refused`,
        null,
      ]);
    }
  });
});

describe("what a screen session may do", () => {
  it("its seat's state and actions; another seat's: 403; none: 401", async () => {
    const cookie = await keySession("front");
    expect((await get("/station/seats/front/screen", cookie)).status).toBe(200);
    expect(
      (await post("/station/seats/front/screen/actions", cookie, { type: "login", user: "alice" })).status,
    ).toBe(200);
    const other = await get("/station/seats/back/screen", cookie);
    expect([other.status, ((await other.json()) as { code: string }).code]).toEqual([403, "forbidden"]);
    expect((await post("/station/seats/back/screen/actions", cookie, { type: "logout" })).status).toBe(403);
    expect((await t.request("/station/seats/front/screen")).status).toBe(401);
    expect((await get("/station/seats/front/screen", "pps_screen_front=forged-value")).status).toBe(401);
  });

  it.each([
    ["GET", "/api-gateway/mdm-service/wms-masterdata/catalog"],
    ["POST", ITEM],
    ["POST", `${ITEM}/search_v2`],
    ["GET", "/station/state"],
    ["PUT", "/station/mode"],
    ["POST", "/station/scans"],
    ["POST", "/station/seats/front/login"],
    ["PUT", "/station/stock"],
    ["POST", "/api-gateway/platform-dashboard/report/generate-inventory-report"],
    ["GET", "/station/notifications?after=0&limit=1"],
    ["GET", "/station/engine"],
  ])("nothing else: %s %s → 401", async (method, path) => {
    const cookie = await keySession("front");
    const res = method === "GET" ? await get(path, cookie) : await post(path, cookie, {}, method);
    expect(res.status).toBe(401);
  });

  it("a refused tap is a 409 naming the reason, like a refused scan", async () => {
    const cookie = await keySession("back");
    const res = await post("/station/seats/back/screen/actions", cookie, { type: "confirm" });
    expect(res.status).toBe(409);
    expect(((await res.json()) as { details: { reason: string } }).details.reason).toBe("not_logged_in");
  });

  it("an API user's bearer token reads and acts at any seat", async () => {
    expect((await t.call("GET", "/station/seats/back/screen")).status).toBe(200);
  });
});

describe("sign-in with an API user's password", () => {
  it("wrong password: 401; right one: a session for that seat only", async () => {
    const bad = await post("/screen/back/session", "", { username: ADMIN, password: "wrong-password-1" });
    expect([bad.status, ((await bad.json()) as { code: string }).code]).toEqual([401, "invalid_credentials"]);
    const res = await post("/screen/back/session", "", { username: ADMIN, password: ADMIN_PASSWORD });
    expect(res.status).toBe(200);
    const cookie = cookieOf(res);
    expect(cookie).toMatch(/^pps_screen_back=/);
    expect((await get("/station/seats/back/screen", cookie)).status).toBe(200);
    expect((await get("/station/seats/front/screen", cookie)).status).toBe(403);
    expect((await get("/api-gateway/mdm-service/wms-masterdata/catalog", cookie)).status).toBe(401);
  });

  it("is renewed while used, expires when idle, and ends with the user's password reset", async () => {
    const signIn = async () =>
      cookieOf(await post("/screen/back/session", "", { username: ADMIN, password: ADMIN_PASSWORD }));
    let cookie = await signIn();
    t.clock.now += USER_SESSION_MS * 0.6;
    const renewed = await get("/station/seats/back/screen", cookie);
    expect(renewed.status).toBe(200);
    expect(renewed.headers.get("set-cookie")).toMatch(/Max-Age=43200/);
    t.clock.now += USER_SESSION_MS * 0.6;
    expect((await get("/station/seats/back/screen", cookie)).status).toBe(200);
    t.clock.now += USER_SESSION_MS + 1;
    expect((await get("/station/seats/back/screen", cookie)).status).toBe(401);

    cookie = await signIn();
    t.clock.now += 1000;
    await t.agent.services.auth.resetPassword(ADMIN, ADMIN_PASSWORD);
    expect((await get("/station/seats/back/screen", cookie)).status).toBe(401);
  });

  it("a password session ends a day after the sign-in, however busy the screen", async () => {
    const cookie = cookieOf(
      await post("/screen/back/session", "", { username: ADMIN, password: ADMIN_PASSWORD }),
    );
    const start = t.clock.now;
    // used every 5 hours: renewed each time, but never past the day
    while (t.clock.now + 5 * 3600_000 < start + USER_SESSION_MAX_MS) {
      t.clock.now += 5 * 3600_000;
      expect((await get("/station/seats/back/screen", cookie)).status).toBe(200);
    }
    t.clock.now = start + USER_SESSION_MAX_MS + 1;
    expect((await get("/station/seats/back/screen", cookie)).status).toBe(401);
  });

  it("sign-out ends the session", async () => {
    const cookie = await keySession("front");
    expect((await t.request("/screen/front/session", { method: "DELETE", headers: { cookie } })).status).toBe(
      200,
    );
    expect((await get("/station/seats/front/screen", cookie)).status).toBe(401);
  });
});

describe("the page and its assets need no session (they hold no station data)", () => {
  it.each([
    ["/screen/front", "text/html"],
    ["/screen/assets/screen.js", "text/javascript"],
    ["/screen/assets/screen.css", "text/css"],
    ["/screen/assets/messages/de", "application/json"],
    ["/screen/assets/languages", "application/json"],
  ])("%s", async (path, type) => {
    const res = await t.request(path);
    expect([res.status, res.headers.get("content-type")?.split(";")[0]]).toEqual([200, type]);
  });
  it("the page forbids any script or style not its own", async () => {
    const csp = (await t.request("/screen/front")).headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).toMatch(/default-src 'none'/);
  });
});
