/**
 * Conformance: "Endpoints" → "Audits" (Create audit over HTTP and over MQTT `create_audit`: both
 * `audit_param_type`s, `kq`, `audit_creator_name`; 400 bad data), "Resources" → "Audit object", and
 * "Errors: any authenticated call | 401" for the audit calls. Notifications are read off the broker.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Json, ok, seedItem, setStock } from "../support/station.js";
import { ask } from "../support/sync/agent.js";
import { AUDIT, auditAct, createAudit, expectAuditData } from "./support/audit.js";
import { type Central, startCentral } from "./support/central.js";

let c: Central;

beforeAll(async () => {
  c = await startCentral();
  await seedItem(c.t, "SHIRT");
  await setStock(c.t, "S-1", "MSU-1", "SHIRT", 10);
  await setStock(c.t, "S-2", "MSU-1", "SHIRT", 4);
  await setStock(c.t, "S-3", "MSU-2", "SHIRT", 3);
  await ok(c.t.call("PUT", "/station/mode", { mode: "audit" }));
  await ok(c.t.call("POST", "/station/seats/front/login", { user: "op-1" }));
});
afterAll(async () => c?.close());

const mqtt = async (name: string, payload: Json) =>
  JSON.parse(await ask(c.broker, name, { transaction: `${name}-${Math.random()}`, ...payload })) as Json;
const base = (over: Json = {}): Json => ({
  action: "create",
  audit_param_name: "cycle count",
  audit_param_type: "location",
  audit_param_value: { locations_list: ["S-1"] },
  kq: true,
  ...over,
});

/** Creates over MQTT, starts over HTTP; the lines of auditlines_created as [location, pdfa_values]. */
async function linesOf(body: Json): Promise<Array<[string, Json]>> {
  const res = await mqtt("create_audit", body);
  expect(res).toMatchObject({ status: "ok", data: { action: "create", audit_id: expect.any(String) } });
  await c.mark();
  await ok(auditAct(c, res.data.audit_id, "start"));
  const [built] = await c.since();
  const d = expectAuditData(built);
  expect(d.audit_status).toBe("auditlines_created");
  await ok(auditAct(c, res.data.audit_id, "cancel"));
  return (d.audit_data as Json[]).map((l) => [l.location, l.pdfa_values]);
}

describe("Audits: Create audit over MQTT (create_audit)", () => {
  it("Audits: Create audit | audit_param_type location, locations_list of slot ids → 200 {action, audit_id}; created notification (audit_data empty)", async () => {
    await c.mark();
    const res = await mqtt("create_audit", base());
    expect(Object.keys(res.data).sort()).toEqual(["action", "audit_id"]);
    const [created, ...more] = await c.since();
    expect(more).toEqual([]);
    expect(expectAuditData(created)).toMatchObject({
      audit_id: res.data.audit_id,
      audit_status: "created",
      audit_param_name: "cycle count",
      audit_param_type: "location",
      pps_id: 7,
    });
  });

  it("Audit object: locations_list of slot ids audits those slots; of MSU ids audits every slot of the MSU", async () => {
    expect((await linesOf(base())).map(([l]) => l)).toEqual(["S-1"]);
    const msu = base({ audit_param_value: { locations_list: ["MSU-1", "MSU-2"] } });
    expect((await linesOf(msu)).map(([l]) => l).sort()).toEqual(["S-1", "S-2", "S-3"]);
  });

  it("Audit object: audit_param_type sku with attributes_list [{sku, attributes_sets}] audits the matching products at every slot holding them; a set matching nothing → aborted at start", async () => {
    const sku = (sets: Json[]) =>
      base({
        audit_param_type: "sku",
        audit_param_value: { attributes_list: [{ sku: "SHIRT", attributes_sets: sets }] },
      });
    const all = await linesOf(sku([]));
    expect(all.map(([l]) => l).sort()).toEqual(["S-1", "S-2", "S-3"]);
    expect(all.map(([, p]) => p)).toEqual([
      { product_sku: "SHIRT" },
      { product_sku: "SHIRT" },
      { product_sku: "SHIRT" },
    ]);
    expect((await linesOf(sku([{ fragile: ["false"] }]))).length).toBe(3);
    const none = await mqtt("create_audit", sku([{ fragile: ["true"] }]));
    await c.mark();
    expect(((await ok(auditAct(c, none.data.audit_id, "start"))) as Json).audit_status).toBe("aborted");
    expectAuditData((await c.since())[0]);
  });

  it("Audit object: audit_param_name (string) and locations_list (strings naming slots or MSUs) are kept as sent, spaces included: ` S-9 ` names that slot, not `S-9`, and central reads back what it sent (decision: docs/decisions.md#audits)", async () => {
    await setStock(c.t, "S-9", "MSU-9", "SHIRT", 2);
    await setStock(c.t, " S-9 ", "MSU-9", "SHIRT", 5);
    const body = base({
      audit_param_name: "  weekly count ",
      audit_param_value: { locations_list: [" S-9 "] },
    });
    const res = await mqtt("create_audit", body);
    await c.mark();
    await ok(auditAct(c, res.data.audit_id, "start"));
    const d = expectAuditData((await c.since())[0]);
    expect(d.audit_param_name).toBe("  weekly count ");
    expect((d.audit_data as Json[]).map((l) => [l.location, l.expected_qty])).toEqual([[" S-9 ", 5]]);
    const read = await ok(c.t.call("GET", `/station/audits/${res.data.audit_id}`));
    expect([read.audit_param_name, read.audit_param_value]).toEqual([
      "  weekly count ",
      { locations_list: [" S-9 "] },
    ]);
    await ok(auditAct(c, res.data.audit_id, "cancel"));
  });

  it("Audits: Create audit | audit_creator_name becomes user_name until the audit begins; then the operator who began it", async () => {
    await c.mark();
    const id = await createAudit(c, ["S-2"], { audit_creator_name: "carla" });
    await ok(auditAct(c, id, "start"));
    await ok(auditAct(c, id, "begin", { seat: "front" }));
    const notes = (await c.since()).map(expectAuditData);
    expect(notes.map((d) => [d.audit_status, d.user_name, d.pps_seat_name])).toEqual([
      ["created", "carla", null],
      ["auditlines_created", "carla", null],
      ["queued", "carla", null],
      ["started", "op-1", "front"],
    ]);
    await ok(auditAct(c, id, "cancel"));
  });

  it("Audits: Create audit | kq false → counts cannot be keyed in (409 keyin_not_allowed); kq true → keyed in", async () => {
    const id = await createAudit(c, ["S-3"], { kq: false });
    await ok(auditAct(c, id, "start"));
    const view = await ok(auditAct(c, id, "begin", { seat: "front" }));
    const line = (view.audit_data as Json[])[0]?.audit_line_id;
    const res = await auditAct(c, id, "count", { audit_line_id: line, good_qty: 3 });
    expect([res.status, ((await res.json()) as Json).code]).toEqual([409, "keyin_not_allowed"]);
    await ok(auditAct(c, id, "cancel"));
  });
});

describe("Audits: Create audit | 400 bad data, naming the field; nothing created", () => {
  const cases: Array<[string, Json, string]> = [
    ["audit_param_name missing", base({ audit_param_name: undefined }), "audit_param_name"],
    ["audit_param_type not location or sku", base({ audit_param_type: "shelf" }), "audit_param_type"],
    [
      "a location audit given attributes_list",
      base({ audit_param_value: { attributes_list: [{ sku: "SHIRT" }] } }),
      "audit_param_value",
    ],
    [
      "a sku audit given locations_list",
      base({ audit_param_type: "sku", audit_param_value: { locations_list: ["S-1"] } }),
      "audit_param_value",
    ],
    [
      "locations_list not strings",
      base({ audit_param_value: { locations_list: [7] } }),
      "audit_param_value.locations_list.0",
    ],
    ["action not create", base({ action: "delete" }), "action"],
    ["kq not a boolean", base({ kq: "true" }), "kq"],
    ["kq missing", base({ kq: undefined }), "kq"],
  ];

  it.each(cases)("Audits: Create audit | 400 bad data: %s (HTTP and MQTT)", async (_, body, field) => {
    await c.mark();
    const res = await c.t.call("POST", AUDIT, body);
    const answer = (await res.json()) as Json;
    expect([res.status, answer.code]).toEqual([400, "validation_failed"]);
    expect((answer.errors as Json[]).map((e) => e.path).some((p) => String(p).startsWith(field))).toBe(true);
    const over = await mqtt("create_audit", body);
    expect(over).toMatchObject({ status: "error", error: { code: "validation_failed" } });
    expect(await c.since()).toEqual([]);
  });
});

describe("Errors: any authenticated call | 401", () => {
  it("Errors: audit calls (create, delete, read, station and dashboard actions) without a token → 401, nothing changed", async () => {
    const id = await createAudit(c, ["S-1"]);
    await c.mark();
    const calls: Array<[string, string, Json | undefined]> = [
      ["POST", AUDIT, base()],
      ["DELETE", `${AUDIT}/delete/${id}`, undefined],
      ["GET", `/station/audits/${id}`, undefined],
      ...["start", "begin", "count", "pause", "resume", "approve", "reject", "reaudit", "cancel"].map(
        (a): [string, string, Json | undefined] => ["POST", `/station/audits/${id}/${a}`, {}],
      ),
    ];
    for (const [method, path, body] of calls) {
      const res = await c.t.request(path, {
        method,
        headers: { "Content-Type": "application/json", Authorization: "Bearer not-a-token" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const bare = await c.t.request(path, {
        method,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect([path, res.status, bare.status]).toEqual([path, 401, 401]);
    }
    expect(await c.since()).toEqual([]);
    expect(((await ok(c.t.call("GET", `/station/audits/${id}`))) as Json).audit_status).toBe("created");
  });
});
