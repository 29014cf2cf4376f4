/**
 * Every route × every role (docs/security.md#roles): the table below is the expected one; the test builds the
 * route list from the registry and fails when a route has no row (a new route must say who may call it)
 * or a row names no route. Each cell is called: anonymous is 401, a role the route does not list is 403
 * `forbidden`, a listed role (and admin, always) gets past authentication and the role check.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ROLES, type Role } from "../../../src/domain/roles.js";
import { RouteRegistry, type RouteSpec } from "../../../src/http/openapi.js";
import { BASIC, startTestAgent, type TestAgent, TOKEN_PATH } from "../../support/agent.js";

const I: Role[] = ["integration"];
const O: Role[] = ["operator"];
const A: Role[] = ["admin"];
const IO: Role[] = ["integration", "operator"];
const MDM = "/api-gateway/mdm-service/wms-masterdata";
const SR = "/api-gateway/sr-service/platform-srms/service-request";
const CORE = "/api-gateway/integration-service/wms-integration/core/api";
const REPORT = "/api-gateway/platform-dashboard/report";

/** Who besides admin may call each authenticated route. */
const EXPECTED: Record<string, Role[]> = {
  [`GET ${MDM}/catalog`]: I,
  [`POST ${MDM}/catalog`]: I,
  [`POST ${MDM}/item`]: I,
  [`POST ${MDM}/item/search_v2`]: I,
  [`POST ${SR}`]: I,
  [`POST ${SR}/cancel`]: I,
  [`POST ${SR}/modify`]: I,
  [`GET ${SR}/:externalServiceRequestId`]: I,
  [`POST ${CORE}/stage_put_expectation`]: I,
  [`POST ${CORE}/orders/print_ready/:externalServiceRequestId`]: I,
  [`POST ${CORE}/audit`]: I,
  [`DELETE ${CORE}/audit/delete/:audit_id`]: I,
  [`POST ${REPORT}/generate-inventory-report`]: I,
  [`GET ${REPORT}/download/:id`]: I,
  "POST /station/racks": I,
  "DELETE /station/racks/:msu": I,
  "GET /station/state": IO,
  "GET /station/engine": IO,
  "GET /station/audits/:audit_id": IO,
  "POST /station/seats/:seat/login": O,
  "POST /station/seats/:seat/logout": O,
  "POST /station/picks": O,
  "POST /station/picks/exceptions": O,
  "POST /station/puts": O,
  "POST /station/puts/exceptions": O,
  "POST /station/puts/:externalServiceRequestId/release": O,
  "POST /station/puts/:externalServiceRequestId/put-back-stage": O,
  "POST /station/bins/:ppsBinId/empty": O,
  "POST /station/scans": O,
  "POST /station/seats/:seat/keyin": O,
  "POST /station/sim/scan": O,
  "POST /station/sim/press": O,
  "POST /station/sim/sensor": O,
  "GET /station/sim/lights": IO,
  "POST /station/audits/:audit_id/begin": O,
  "POST /station/audits/:audit_id/count": O,
  "GET /station/seats/:seat/screen": O,
  "GET /station/seats/:seat/screen/events": O,
  "POST /station/seats/:seat/screen/actions": O,
  "GET /station/training": O,
  "PUT /station/seats/:seat/training": A,
  "POST /station/training/reset": A,
  // central sets the station's mode too (docs/mqtt.md#telling-a-seat); operators never
  "PUT /station/mode": I,
  // what central tells a seat (docs/mqtt.md#telling-a-seat)
  "POST /station/seats/:seat/pause": I,
  "POST /station/seats/:seat/resume": I,
  "POST /station/seats/:seat/messages": I,
  "PUT /station/stock": A,
  // central reads what it missed, over HTTP as over MQTT (request/replay_notifications)
  "GET /station/notifications": I,
  "GET /station/security-events": A,
  "GET /station/outbox/dead-letters": A,
  "POST /station/outbox/dead-letters/replay": A,
  "GET /station/webhooks": A,
  "POST /station/webhooks": A,
  "GET /station/webhooks/:id": A,
  "PUT /station/webhooks/:id": A,
  "DELETE /station/webhooks/:id": A,
  "POST /station/webhooks/:id/enable": A,
  "POST /station/webhooks/:id/disable": A,
  "POST /station/webhooks/:id/replay": A,
  "POST /station/audits/:audit_id/start": A,
  "POST /station/audits/:audit_id/approve": A,
  "POST /station/audits/:audit_id/reject": A,
  "POST /station/audits/:audit_id/reaudit": A,
  "POST /station/audits/:audit_id/cancel": A,
  // the operator at the station pauses an audit (called away) and resumes it; the dashboard too
  "POST /station/audits/:audit_id/pause": O,
  "POST /station/audits/:audit_id/resume": O,
};

const key = (r: RouteSpec) => `${r.method.toUpperCase()} ${r.path}`;
const PASSWORD = "a-long-test-password";

let t: TestAgent;
let specs: RouteSpec[];
const tokens = new Map<Role, string>();

async function tokenOf(username: string, password: string): Promise<string> {
  const res = await t.request(TOKEN_PATH, {
    method: "POST",
    headers: { Authorization: BASIC, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "password", username, password }).toString(),
  });
  const body = (await res.json()) as { access_token: string; scope: string };
  return body.access_token;
}

beforeAll(async () => {
  const add = vi.spyOn(RouteRegistry.prototype, "add");
  t = await startTestAgent();
  specs = add.mock.calls.map(([spec]) => spec);
  add.mockRestore();
  tokens.set("admin", await t.token());
  for (const role of ["integration", "operator"] as const) {
    await t.agent.services.auth.addUser(`${role}-user`, PASSWORD, role);
    tokens.set(role, await tokenOf(`${role}-user`, PASSWORD));
  }
});
afterAll(async () => {
  await t?.close();
});

/** A concrete path: a real seat (the screen routes look the seat up first), any value elsewhere. */
function pathOf(r: RouteSpec, seat: string): string {
  return r.path.replace(/:seat\b/, seat).replace(/:([A-Za-z_]+)/g, "x1");
}

async function call(r: RouteSpec, seat: string, token: string | undefined): Promise<[number, string]> {
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  const withBody = r.method === "post" || r.method === "put";
  if (withBody) headers["Content-Type"] = "application/json";
  const res = await t.request(pathOf(r, seat), {
    method: r.method.toUpperCase(),
    headers,
    ...(withBody ? { body: "{}" } : {}),
  });
  const text = res.headers.get("content-type")?.includes("event-stream") ? "" : await res.text();
  if (!text) await res.body?.cancel();
  const code = text.startsWith("{") ? ((JSON.parse(text) as { code?: string }).code ?? "") : "";
  return [res.status, code];
}

describe("roles: every route with every role", () => {
  it("the expected table covers every authenticated route exactly", () => {
    const authenticated = specs.filter((r) => r.auth || r.screenSession).map(key);
    expect([...authenticated].sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const r of specs.filter((s) => s.auth || s.screenSession))
      expect([key(r), [...(r.roles ?? [])].sort()]).toEqual([key(r), [...(EXPECTED[key(r)] ?? [])].sort()]);
  });

  it("docs/roles.md shows the same table", () => {
    const doc = readFileSync(new URL("../../../docs/roles.md", import.meta.url), "utf8");
    const rows: Record<string, Role[]> = {};
    for (const m of doc.matchAll(/^\| `([A-Z]+ [^`]+)` \|(.*)\|\s*$/gm)) {
      const cells = (m[2] as string).split("|").map((c) => c.trim() === "✓");
      rows[m[1] as string] = ROLES.filter((r, i) => r !== "admin" && cells[i]);
      expect([m[1], cells[2]]).toEqual([m[1], true]);
    }
    const expected = Object.fromEntries(
      Object.entries(EXPECTED).map(([k, v]) => [k, [...v].filter((r) => r !== "admin")]),
    );
    expect(rows).toEqual(expected);
  });

  it("the token's scope is the user's role", async () => {
    const res = await t.request(TOKEN_PATH, {
      method: "POST",
      headers: { Authorization: BASIC, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "password", username: "operator-user", password: PASSWORD }),
    });
    expect(((await res.json()) as { scope: string }).scope).toBe("operator");
  });

  it("answers 401 without a token, 403 forbidden to a role not listed, and lets listed roles and admin by", async () => {
    const state = (await (await t.call("GET", "/station/state")).json()) as {
      seats: Array<{ seat: string }>;
    };
    const seat = state.seats[0]?.seat as string;
    const wrong: string[] = [];
    for (const r of specs.filter((s) => s.auth || s.screenSession)) {
      const allowed = EXPECTED[key(r)] ?? [];
      const [anonymous] = await call(r, seat, undefined);
      if (anonymous !== 401) wrong.push(`${key(r)} anonymous: ${anonymous}`);
      for (const role of ROLES) {
        const [status, code] = await call(r, seat, tokens.get(role));
        const may = role === "admin" || allowed.includes(role);
        const ok = may ? status !== 401 && status !== 403 : status === 403 && code === "forbidden";
        if (!ok) wrong.push(`${key(r)} ${role}: ${status} ${code}`);
      }
    }
    expect(wrong).toEqual([]);
    // every refusal went through onForbidden: counted by role
    const metrics = await t.agent.metrics.render();
    for (const role of ["integration", "operator"])
      expect(metrics).toMatch(new RegExp(`auth_forbidden_total\\{role="${role}"\\} [1-9]`));
    expect(metrics).not.toContain('auth_forbidden_total{role="admin"}');
  });
});
