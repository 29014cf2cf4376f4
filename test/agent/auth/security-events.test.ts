/**
 * The security event log over HTTP (docs/security.md#security-event-log): a failed login at the token endpoint
 * or on the operator screen leaves a row with the client's address and the reason, never the password;
 * answers to repeated failures are delayed (the test agent records the delays instead of waiting); the
 * lockout is recorded once; admins read the log with filters and paging; bad query values are 400s.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN,
  ADMIN_PASSWORD,
  BASIC,
  startTestAgent,
  type TestAgent,
  TOKEN_PATH,
} from "../../support/agent.js";

const WRONG = "not-the-password-123";
const PATH = "/station/security-events";

interface Event {
  id: number;
  at: string;
  kind: string;
  channel: string;
  username: string | null;
  address: string | null;
  detail: Record<string, unknown> | null;
}
interface Page {
  events: Event[];
  nextBeforeId: number | null;
}

let t: TestAgent;
beforeAll(async () => {
  t = await startTestAgent();
});
afterAll(async () => t.close());

/** As if sent from `address` (the socket's remote address). */
const from = (address: string) => ({ incoming: { readableEnded: true, socket: { remoteAddress: address } } });

function login(address: string, password: string, username = ADMIN) {
  const init = {
    method: "POST",
    headers: { Authorization: BASIC, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "password", username, password }).toString(),
  };
  return t.agent.app.request(TOKEN_PATH, init, from(address));
}

async function events(query = ""): Promise<Page> {
  const res = await t.call("GET", `${PATH}${query}`);
  expect(res.status).toBe(200);
  return (await res.json()) as Page;
}

describe("failed logins in the security event log", () => {
  it("a failed token request leaves its address and reason, never the password", async () => {
    expect((await login("10.0.0.41", WRONG)).status).toBe(401);
    expect((await login("10.0.0.41", WRONG, "nobody")).status).toBe(401);
    const page = await events("?kind=login_failed");
    const rows = page.events.filter((e) => e.address === "10.0.0.41");
    expect(rows.map((e) => [e.channel, e.username, e.detail?.reason])).toEqual([
      ["http", "nobody", "unknown_user"],
      ["http", ADMIN, "wrong_password"],
    ]);
    expect(JSON.stringify(page)).not.toContain(WRONG);
    const raw = t.agent.db.sqlite.prepare("SELECT * FROM security_events").all();
    expect(JSON.stringify(raw)).not.toContain(WRONG);
    expect(JSON.stringify(raw)).not.toContain(ADMIN_PASSWORD);
  });

  it("delays the answers from the 3rd failure on, records the lockout once, then 429s unrecorded", async () => {
    t.sleeps.length = 0;
    for (let i = 0; i < 5; i++) expect((await login("10.0.0.42", WRONG)).status).toBe(401);
    expect(t.sleeps).toEqual([1000, 2000, 4000]);
    for (let i = 0; i < 3; i++) expect((await login("10.0.0.42", WRONG)).status).toBe(429);
    expect(t.sleeps).toHaveLength(3); // a refused attempt is answered at once
    const rows = (await events()).events.filter((e) => e.address === "10.0.0.42");
    expect(rows.map((e) => e.kind)).toEqual(["login_throttled", ...Array<string>(5).fill("login_failed")]);
    expect(rows[0]?.detail).toEqual({ scope: "pair", lockSeconds: 900 });
    expect(rows[1]?.detail).toEqual({ reason: "wrong_password", delayMs: 4000 });
    // the real user, elsewhere, is neither delayed nor refused
    expect((await login("10.0.0.43", ADMIN_PASSWORD)).status).toBe(200);
    expect(t.sleeps).toHaveLength(3);
    const ok = (await events("?kind=login_succeeded")).events.find((e) => e.address === "10.0.0.43");
    expect(ok).toMatchObject({ channel: "http", username: ADMIN });
  });

  it("a failed sign-in on the operator screen is recorded and throttled like the token endpoint", async () => {
    const signIn = (password: string) =>
      t.agent.app.request(
        "/screen/front/session",
        {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ username: ADMIN, password }),
        },
        from("10.0.0.44"),
      );
    for (let i = 0; i < 5; i++) expect((await signIn(WRONG)).status).toBe(401);
    const refused = await signIn(ADMIN_PASSWORD);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("900");
    const rows = (await events("?kind=login_failed")).events.filter((e) => e.address === "10.0.0.44");
    expect(rows).toHaveLength(5);
    expect(rows[0]).toMatchObject({
      channel: "screen",
      username: ADMIN,
      detail: { reason: "wrong_password" },
    });
  });

  it("records a refresh token's rotation as a revocation", async () => {
    const first = (await (await login("10.0.0.45", ADMIN_PASSWORD)).json()) as { refresh_token: string };
    const init = {
      method: "POST",
      headers: { Authorization: BASIC, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: first.refresh_token,
      }).toString(),
    };
    expect((await t.agent.app.request(TOKEN_PATH, init, from("10.0.0.45"))).status).toBe(200);
    const [row] = (await events("?kind=token_revoked&limit=1")).events;
    expect(row).toMatchObject({
      channel: "http",
      username: ADMIN,
      address: "10.0.0.45",
      detail: { reason: "refresh_rotation", scope: "token" },
    });
    expect(JSON.stringify(row)).not.toContain(first.refresh_token);
  });
});

describe("GET /station/security-events", () => {
  it("pages newest first with before_id and filters by user name and time", async () => {
    const all = (await events("?limit=1000")).events;
    expect(all.length).toBeGreaterThan(10);
    expect(all.map((e) => e.id)).toEqual([...all.map((e) => e.id)].sort((a, b) => b - a));
    const first = await events("?limit=4");
    expect(first.events.map((e) => e.id)).toEqual(all.slice(0, 4).map((e) => e.id));
    expect(first.nextBeforeId).toBe(all[3]?.id);
    const second = await events(`?limit=4&before_id=${first.nextBeforeId}`);
    expect(second.events.map((e) => e.id)).toEqual(all.slice(4, 8).map((e) => e.id));
    const last = await events(`?limit=1000&before_id=${all[2]?.id}`);
    expect(last.nextBeforeId).toBeNull();
    expect((await events("?username=nobody")).events.map((e) => e.username)).toEqual(["nobody"]);
    const at = all[0]?.at as string;
    expect(
      (await events(`?until=${encodeURIComponent(at)}&since=2026-11-21T09:00:00Z`)).events.length,
    ).toBeLessThan(all.length);
    expect((await events("?since=2027-01-01T00:00:00%2B01:00")).events).toEqual([]);
  });

  it.each([
    ["since=yesterday", "since"],
    ["until=2026-11-21", "until"],
    ["since=2026-11-21T10:00:00", "since"],
    ["kind=login_guessed", "kind"],
    ["limit=0", "limit"],
    ["limit=1001", "limit"],
    ["limit=ten", "limit"],
    ["before_id=-3", "before_id"],
    ["username=", "username"],
    ["sort=asc", ""],
  ])("answers %s with 400 naming %s", async (query, field) => {
    const res = await t.call("GET", `${PATH}?${query}`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; errors: Array<{ path: string }> };
    expect(body.code).toBe("validation_failed");
    if (field) expect(body.errors[0]?.path).toContain(field);
  });

  it("needs a token", async () => {
    expect((await t.request(PATH)).status).toBe(401);
  });
});

describe("a full disk", () => {
  it("loses the event, not the answer: a failed login is still a 401, and retried logins work once space is back", async () => {
    const sqlite = t.agent.db.sqlite;
    sqlite.exec("CREATE TABLE IF NOT EXISTS filler (b BLOB)");
    const limit = sqlite.pragma("max_page_count", { simple: true }) as number;
    sqlite.pragma(`max_page_count = ${sqlite.pragma("page_count", { simple: true })}`);
    // the free pages, then the room left in the log's own pages (and its indexes')
    const fills = [
      sqlite.prepare("INSERT INTO filler VALUES (randomblob(?))"),
      sqlite.prepare(
        "INSERT INTO security_events (at, kind, channel, detail) VALUES (0, 'filler', 'cli', json_object('f', hex(randomblob(?))))",
      ),
    ];
    for (const fill of fills)
      for (const size of [4000, 500, 50, 1]) {
        try {
          for (;;) fill.run(size);
        } catch (e) {
          expect((e as { code?: string }).code).toBe("SQLITE_FULL");
        }
      }
    const before = (await events("?limit=1000")).events.filter((e) => e.address === "10.0.0.46").length;
    expect((await login("10.0.0.46", WRONG, "x".repeat(100))).status).toBe(401);
    expect((await events("?limit=1000")).events.filter((e) => e.address === "10.0.0.46")).toHaveLength(
      before,
    );
    sqlite.pragma(`max_page_count = ${limit}`);
    sqlite.exec("DROP TABLE filler; DELETE FROM security_events WHERE kind = 'filler'");
    expect((await login("10.0.0.46", WRONG, "y".repeat(100))).status).toBe(401);
    expect((await events("?limit=1")).events[0]).toMatchObject({
      address: "10.0.0.46",
      username: "y".repeat(100),
    });
  });
});

describe("retention", () => {
  it("the background pruning drops events past security.eventRetentionDays (90 by default)", async () => {
    const log = t.agent.services.securityLog;
    const before = log.list({ limit: 1000 }).length;
    t.clock.now += 89 * 24 * 3600_000;
    expect(log.prune()).toBe(0);
    t.clock.now += 2 * 24 * 3600_000;
    expect(log.prune()).toBe(before);
    expect(log.list({ limit: 1000 })).toEqual([]);
  });
});
