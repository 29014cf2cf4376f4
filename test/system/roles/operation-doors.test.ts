/**
 * One rule per operation, whatever the door (docs/roles.md#one-rule-per-operation): for every operation
 * reachable through more than one door and every role, the HTTP route, the MQTT request on the embedded
 * broker and the operator screen's tap agree with the table in domain/permissions.ts. Real sockets: the
 * HTTP server, the broker and a seat's key session.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mayPerform, type Operation, rolesFor } from "../../../src/domain/permissions.js";
import { ROLES, type Role, roleAllows } from "../../../src/domain/roles.js";
import { RouteRegistry, type RouteSpec } from "../../../src/http/openapi.js";
import { SCREEN_KEYS_FILE } from "../../../src/services/auth/screen-sessions.js";
import { CONTAINER_EXCEPTIONS } from "../../../src/station/scan-codes.js";
import { SCREEN_ACTION_OPERATION } from "../../../src/station/screen/actions.js";
import { PROBLEM_KINDS } from "../../../src/station/seat.problem.js";
import { REQUEST_NAMES, REQUEST_OPERATION, type RequestName } from "../../../src/sync/topics.js";
import { BASIC, type TestAgent, TOKEN_PATH } from "../../support/agent.js";
import { agentOn, ROOT } from "../../support/sync/agent.js";

const PASSWORD = "a-long-test-password";
const SR = "/api-gateway/sr-service/platform-srms/service-request";
const CORE = "/api-gateway/integration-service/wms-integration/core/api";
const MDM = "/api-gateway/mdm-service/wms-masterdata";

/** The HTTP route of each operation that has another door too (the MQTT request or a screen tap). */
const HTTP_ROUTE: Partial<Record<Operation, string>> = {
  create_service_request: `POST ${SR}`,
  cancel_service_request: `POST ${SR}/cancel`,
  modify_service_request: `POST ${SR}/modify`,
  stage_put: `POST ${CORE}/stage_put_expectation`,
  print_ready: `POST ${CORE}/orders/print_ready/:externalServiceRequestId`,
  create_audit: `POST ${CORE}/audit`,
  delete_audit: `DELETE ${CORE}/audit/delete/:audit_id`,
  audit_begin: "POST /station/audits/:audit_id/begin",
  upsert_item: `POST ${MDM}/item`,
  upsert_catalog: `POST ${MDM}/catalog`,
  generate_inventory_report: "POST /api-gateway/platform-dashboard/report/generate-inventory-report",
  rack_presented: "POST /station/racks",
  read_notifications: "GET /station/notifications",
  replay_dead_letters: "POST /station/outbox/dead-letters/replay",
  seat_login: "POST /station/seats/:seat/login",
  seat_logout: "POST /station/seats/:seat/logout",
  seat_input: "POST /station/scans",
  set_mode: "PUT /station/mode",
  empty_bin: "POST /station/bins/:ppsBinId/empty",
  release_put: "POST /station/puts/:externalServiceRequestId/release",
  pause_seat: "POST /station/seats/:seat/pause",
  message_seat: "POST /station/seats/:seat/messages",
  set_training: "PUT /station/seats/:seat/training",
  reset_training: "POST /station/training/reset",
  correct_stock: "PUT /station/stock",
};

/** A well-formed body of each tap: the rule is checked before what the tap does. */
const TAPS: Record<keyof typeof SCREEN_ACTION_OPERATION, Record<string, unknown>> = {
  login: { user: "nobody" },
  logout: {},
  confirm: {},
  cancel: {},
  exception: { code: CONTAINER_EXCEPTIONS[0] },
  keyin: { quantity: 1 },
  scan: { barcode: "NOTHING-1" },
  problem: { kind: PROBLEM_KINDS[0], confirmed: true },
  mode: { mode: "put" },
  empty: { bin: "no-bin" },
  release: { bin: "no-bin" },
  reprint: { bin: "no-bin" },
  language: { lang: null },
  skip_label: { bin: "no-bin" },
  supervisor: {},
  capture: { value: "SN-1" },
  undo: {},
  audit_begin: {},
  pause: { reason: "door check" },
  resume: {},
  acknowledge: { id: 1 },
  acknowledge_restart: {},
  training: { training: false },
  training_reset: {},
  supervisor_prompt: { pending: null },
  correct_put: { slot: "no-slot" },
  wrong_bin: { bin: "no-bin" },
};

let t: TestAgent;
let specs: Map<string, RouteSpec>;
const tokens = new Map<Role, string>();
let keyCookie = "";

async function tokenOf(username: string): Promise<string> {
  const res = await t.request(TOKEN_PATH, {
    method: "POST",
    headers: { Authorization: BASIC, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "password", username, password: PASSWORD }).toString(),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

beforeAll(async () => {
  const add = vi.spyOn(RouteRegistry.prototype, "add");
  t = await agentOn("embedded");
  specs = new Map(add.mock.calls.map(([s]) => [`${s.method.toUpperCase()} ${s.path}`, s]));
  add.mockRestore();
  for (const role of ROLES) {
    await t.agent.services.auth.addUser(`${role}-door`, PASSWORD, role);
    tokens.set(role, await tokenOf(`${role}-door`));
  }
  const keys = JSON.parse(readFileSync(join(t.dir, SCREEN_KEYS_FILE), "utf8")) as Record<string, string>;
  const res = await t.request(`/screen/front?key=${encodeURIComponent(keys.front ?? "")}`);
  keyCookie = (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
});
afterAll(async () => {
  await t?.close();
});

/** Whether the broker lets `role` send request `name`: an answer comes, or the connection is closed. */
async function brokerLets(role: Role, name: RequestName): Promise<boolean> {
  const client = mqtt.connect(t.agent.sync.url as string, {
    protocolVersion: 4,
    reconnectPeriod: 0,
    username: `${role}-door`,
    password: PASSWORD,
  });
  try {
    const ok = await new Promise<boolean>((resolve, reject) => {
      client.once("error", (e) => (String(e).includes("authorized") ? resolve(false) : reject(e)));
      client.once("connect", async () => {
        client.once("close", () => resolve(false));
        client.on("message", (topic) => topic.endsWith(`/response/${name}`) && resolve(true));
        await client.subscribeAsync(`${ROOT}/response/${name}`, { qos: 1 });
        client.publish(`${ROOT}/request/${name}`, JSON.stringify({ transaction: `door-${role}-${name}` }), {
          qos: 1,
        });
      });
    });
    return ok;
  } finally {
    client.end(true);
  }
}

/** Whether the screen lets a caller make a tap: anything but 401/403. */
async function screenLets(type: keyof typeof TAPS, caller: Role | "key"): Promise<boolean> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (caller === "key") headers.cookie = keyCookie;
  else headers.Authorization = `Bearer ${tokens.get(caller)}`;
  const res = await t.request("/station/seats/front/screen/actions", {
    method: "POST",
    headers,
    body: JSON.stringify({ type, ...TAPS[type] }),
  });
  const body = (await res.json()) as { code?: string };
  if (res.status === 401) throw new Error(`${caller} was not let in at all`);
  return !(res.status === 403 && body.code === "forbidden");
}

describe("one rule per operation, at every door", () => {
  it("every operation with another door names its HTTP route, and that route holds the table's roles", () => {
    const others = new Set<Operation>([
      ...Object.values(REQUEST_OPERATION),
      ...Object.values(SCREEN_ACTION_OPERATION),
    ]);
    // reached only by MQTT (`backup`, `health_check` beside the open /readyz, `sign_out_operator`) or
    // only by the screen (a supervisor's pause, a message acknowledged)
    const oneDoor = [
      "backup",
      "health_check",
      "sign_out_operator",
      "set_productivity_targets",
      "supervise_seat",
      "acknowledge_message",
      "reprint_label",
      "set_language",
      "skip_label",
      "call_supervisor",
      "correct_pick_bin",
    ];
    for (const op of others) {
      if (oneDoor.includes(op)) continue;
      const route = HTTP_ROUTE[op];
      expect([op, route !== undefined]).toEqual([op, true]);
      expect([op, [...(specs.get(route as string)?.roles ?? ["missing"])].sort()]).toEqual([
        op,
        rolesFor(op).sort(),
      ]);
    }
  });

  it("the broker lets a role send a request exactly when the table lets it perform the operation", async () => {
    const wrong: string[] = [];
    for (const name of REQUEST_NAMES)
      for (const role of ["integration", "admin"] as const) {
        const op = REQUEST_OPERATION[name];
        const route = HTTP_ROUTE[op];
        const http =
          route === undefined ? mayPerform(role, op) : roleAllows(specs.get(route)?.roles ?? [], role);
        const lets = await brokerLets(role, name);
        if (lets !== mayPerform(role, op) || lets !== http)
          wrong.push(`${name} ${role}: broker ${lets}, http ${http}`);
      }
    expect(wrong).toEqual([]);
  });

  it("the screen lets a caller tap exactly when the table lets its role perform the tap's operation", async () => {
    const wrong: string[] = [];
    // a key session is the station box's own display: an operator's rights, no more
    const callers = [
      ["operator", "operator"],
      ["admin", "admin"],
      ["key", "operator"],
    ] as const;
    for (const type of Object.keys(TAPS) as Array<keyof typeof TAPS>)
      for (const [caller, role] of callers) {
        const op = SCREEN_ACTION_OPERATION[type];
        const route = HTTP_ROUTE[op];
        const http =
          route === undefined ? mayPerform(role, op) : roleAllows(specs.get(route)?.roles ?? [], role);
        const lets = await screenLets(type, caller);
        if (lets !== mayPerform(role, op) || lets !== http)
          wrong.push(`${type} ${caller}: screen ${lets}, http ${http}`);
      }
    expect(wrong).toEqual([]);
  });

  it("a mode switch on the screen is an admin's: an operator and a key session are refused, nothing changes", async () => {
    const before = ((await (await t.call("GET", "/station/state")).json()) as { mode: string }).mode;
    const mode = before === "pick" ? "audit" : "pick";
    const callers: Array<Record<string, string>> = [
      { Authorization: `Bearer ${tokens.get("operator")}` },
      { cookie: keyCookie },
    ];
    for (const headers of callers) {
      const res = await t.request("/station/seats/front/screen/actions", {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/json" },
        body: JSON.stringify({ type: "mode", mode }),
      });
      expect([res.status, ((await res.json()) as { code: string }).code]).toEqual([403, "forbidden"]);
    }
    expect(((await (await t.call("GET", "/station/state")).json()) as { mode: string }).mode).toBe(before);
  });
});
