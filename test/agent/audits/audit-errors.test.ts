import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import {
  AUDIT,
  act,
  createAudit,
  type Json,
  lastSeq,
  login,
  ok,
  seedItem,
  seedStock,
  setMode,
  stationReady,
  view,
} from "../../support/audits.js";

let t: TestAgent;
beforeAll(async () => {
  t = await startTestAgent();
  await seedItem(t, "PEN");
  await seedStock(t, "P-1", "MSU-P", "PEN", 5);
  await seedStock(t, "P-2", "MSU-P", "PEN", 5);
});
afterAll(async () => t.close());

const auditCount = () =>
  (t.agent.db.sqlite.prepare("SELECT count(*) AS n FROM audits").get() as { n: number }).n;

/** Asserts a refused call: the status, the code, no notification and (when given) the audit unchanged. */
async function refused(
  call: () => Promise<Response>,
  status: number,
  code: string,
  auditId?: string,
): Promise<{ errors: Array<{ path: string }>; details?: Json }> {
  const seq = await lastSeq(t);
  const before = auditId ? JSON.stringify(await view(t, auditId)) : undefined;
  const audits = auditCount();
  const res = await call();
  const body = (await res.json()) as { code: string; errors: Array<{ path: string }>; details?: Json };
  expect(res.status, JSON.stringify(body)).toBe(status);
  expect(body.code).toBe(code);
  expect(await lastSeq(t)).toBe(seq);
  expect(auditCount()).toBe(audits);
  if (auditId) expect(JSON.stringify(await view(t, auditId))).toBe(before);
  return body;
}

const valid: Json = {
  action: "create",
  audit_param_name: "count",
  audit_param_type: "location",
  audit_param_value: { locations_list: ["P-1"] },
  kq: true,
};

describe("create: 400 naming the field, nothing created", () => {
  const cases: Array<[string, Json, string]> = [
    ["action is not create", { ...valid, action: "delete" }, "action"],
    ["audit_param_name missing", { ...valid, audit_param_name: undefined }, "audit_param_name"],
    ["audit_param_name empty", { ...valid, audit_param_name: " " }, "audit_param_name"],
    ["unknown audit_param_type", { ...valid, audit_param_type: "bin" }, "audit_param_type"],
    ["kq missing", { ...valid, kq: undefined }, "kq"],
    ["kq not a boolean", { ...valid, kq: "true" }, "kq"],
    ["audit_param_value missing", { ...valid, audit_param_value: undefined }, "audit_param_value"],
    [
      "empty locations_list",
      { ...valid, audit_param_value: { locations_list: [] } },
      "audit_param_value.locations_list",
    ],
    [
      "a location not a string",
      { ...valid, audit_param_value: { locations_list: [7] } },
      "audit_param_value.locations_list.0",
    ],
    [
      "a sku audit given locations_list",
      { ...valid, audit_param_type: "sku", audit_param_value: { locations_list: ["P-1"] } },
      "audit_param_value.attributes_list",
    ],
    [
      "an attributes_list entry without sku",
      {
        ...valid,
        audit_param_type: "sku",
        audit_param_value: { attributes_list: [{ attributes_sets: [] }] },
      },
      "audit_param_value.attributes_list.0.sku",
    ],
    [
      "an attribute set mapping to a string",
      {
        ...valid,
        audit_param_type: "sku",
        audit_param_value: { attributes_list: [{ sku: "PEN", attributes_sets: [{ colour: "red" }] }] },
      },
      "audit_param_value.attributes_list.0.attributes_sets.0.colour",
    ],
    [
      "an empty attribute set",
      {
        ...valid,
        audit_param_type: "sku",
        audit_param_value: { attributes_list: [{ sku: "PEN", attributes_sets: [{}] }] },
      },
      "audit_param_value.attributes_list.0.attributes_sets.0",
    ],
  ];
  for (const [what, body, path] of cases) {
    it(what, async () => {
      const err = await refused(() => t.call("POST", AUDIT, body), 400, "validation_failed");
      expect(err.errors.map((e) => e.path)).toContain(path);
    });
  }

  it("malformed JSON, wrong content type, no token", async () => {
    const raw =
      (body: string, type: string, auth = true) =>
      async () =>
        t.request(AUDIT, {
          method: "POST",
          headers: { "Content-Type": type, ...(auth ? { Authorization: `Bearer ${await t.token()}` } : {}) },
          body,
        });
    await refused(raw("{nope", "application/json"), 400, "malformed_json");
    await refused(raw(JSON.stringify(valid), "text/plain"), 415, "unsupported_media_type");
    await refused(raw(JSON.stringify(valid), "application/json", false), 401, "unauthorized");
  });
});

describe("delete: 404 unknown, 409 once started", () => {
  it("404 for an unknown audit id", async () => {
    await refused(() => t.call("DELETE", `${AUDIT}/delete/no-such-audit`), 404, "not_found");
  });

  it("409 once started, and when paused before start; the audit is unchanged", async () => {
    const started = await createAudit(t, { audit_param_value: { locations_list: ["P-1"] } });
    await ok(t, started, "start");
    await refused(() => t.call("DELETE", `${AUDIT}/delete/${started}`), 409, "invalid_state", started);
    const paused = await createAudit(t);
    await ok(t, paused, "pause");
    await refused(() => t.call("DELETE", `${AUDIT}/delete/${paused}`), 409, "invalid_state", paused);
  });
});

describe("station actions: 404 unknown, 409 invalid_state for a move the table refuses", () => {
  it("404 for every action on an unknown audit, and for GET", async () => {
    for (const action of ["start", "begin", "approve", "reject", "reaudit", "cancel", "pause", "resume"]) {
      await refused(() => act(t, "nope", action), 404, "not_found");
    }
    await refused(() => t.call("GET", "/station/audits/nope"), 404, "not_found");
  });

  it("a created audit refuses approve, reject, reaudit, begin and resume", async () => {
    const id = await createAudit(t);
    for (const action of ["approve", "reject", "reaudit", "begin", "resume"]) {
      await refused(() => act(t, id, action), 409, "invalid_state", id);
    }
  });

  it("a finished audit refuses everything, cancel and pause included", async () => {
    const id = await createAudit(t);
    await ok(t, id, "cancel");
    for (const action of ["start", "cancel", "pause", "resume", "approve"]) {
      await refused(() => act(t, id, action), 409, "invalid_state", id);
    }
  });
});

describe("begin: station mode, operator, seat", () => {
  let id: string;
  beforeAll(async () => {
    id = await createAudit(t, { audit_param_value: { locations_list: ["P-1"] } });
    await ok(t, id, "start");
  });

  it("409 outside audit mode and without an operator at the seat", async () => {
    await setMode(t, "pick");
    const condition = async (code: string, body?: Json) =>
      (await refused(() => act(t, id, "begin", body), 409, code, id)).details?.condition;
    expect(await condition("wrong_mode")).toBe("pps_mode_incorrect");
    await setMode(t, "audit");
    expect(await condition("not_logged_in")).toBe("pps_not_logged_in");
    await login(t, "back", "op-b");
    expect(await condition("not_logged_in", { seat: "front" })).toBe("pps_not_logged_in");
  });

  it("400 for an unknown seat or a bad body", async () => {
    await stationReady(t);
    await refused(() => act(t, id, "begin", { seat: "side" }), 400, "validation_failed", id);
    await refused(() => act(t, id, "begin", { seat: 1 }), 400, "validation_failed", id);
    await refused(() => act(t, id, "begin", { seat: "front", extra: true }), 400, "validation_failed", id);
  });

  it("409 while another audit is being counted at the station", async () => {
    await ok(t, id, "begin", { seat: "back" });
    const other = await createAudit(t, { audit_param_value: { locations_list: ["P-2"] } });
    await ok(t, other, "start");
    const err = await refused(() => act(t, other, "begin"), 409, "invalid_state", other);
    expect(err.details).toEqual({ condition: "audit_in_progress", audit_id: id });
    await ok(t, id, "cancel");
  });
});

describe("count: key-in only with kq; quantities checked", () => {
  it("409 keyin_not_allowed when the audit was created with kq false", async () => {
    await stationReady(t);
    const id = await createAudit(t, { kq: false, audit_param_value: { locations_list: ["P-1"] } });
    await ok(t, id, "start");
    await ok(t, id, "begin");
    await refused(
      () => act(t, id, "count", { audit_line_id: `${id}-1`, good_qty: 5 }),
      409,
      "keyin_not_allowed",
      id,
    );
    await ok(t, id, "cancel");
  });

  it("400 for bad quantities, 404 for an unknown line, 409 before begin or for a counted line", async () => {
    await stationReady(t);
    const id = await createAudit(t, { audit_param_value: { locations_list: ["MSU-P"] } });
    await ok(t, id, "start");
    const line = `${id}-1`;
    await refused(() => act(t, id, "count", { audit_line_id: line, good_qty: 5 }), 409, "invalid_state", id);
    await ok(t, id, "begin");
    const bad: Json[] = [
      { audit_line_id: line },
      { audit_line_id: line, good_qty: -1 },
      { audit_line_id: line, good_qty: 1.5 },
      { audit_line_id: line, good_qty: 5, damaged_qty: "1" },
      { good_qty: 5 },
      { audit_line_id: line, good_qty: 5, extra: 1 },
    ];
    for (const body of bad) await refused(() => act(t, id, "count", body), 400, "validation_failed", id);
    await refused(() => act(t, id, "count", { audit_line_id: "x-9", good_qty: 1 }), 404, "not_found", id);
    await ok(t, id, "count", { audit_line_id: line, good_qty: 5 });
    await refused(() => act(t, id, "count", { audit_line_id: line, good_qty: 4 }), 409, "invalid_state", id);
  });
});
