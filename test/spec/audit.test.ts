/**
 * Conformance: "States and transitions" → "Audit", "Resources" → "Audit object" (audit line,
 * quantity_details), "Endpoints" → "Audits", "Events" → audit_information and rule 7. The calls go over
 * HTTP (create and delete also over MQTT); every notification is read off the embedded broker.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASIC, TOKEN_PATH } from "../support/agent.js";
import { type Json, ok, seedItem, setStock } from "../support/station.js";
import { ask } from "../support/sync/agent.js";
import { AUDIT, auditAct, auditStatuses, createAudit } from "./support/audit.js";
import { type Central, startCentral } from "./support/central.js";

const ZERO = { good_qty: 0, missing_qty: 0, damaged_qty: 0, unscannable_qty: 0, system_removed_qty: 0 };

let c: Central;
/** An operator's bearer token: the person at the station. */
let operator: string;

beforeAll(async () => {
  c = await startCentral();
  await seedItem(c.t, "SHIRT");
  await setStock(c.t, "S-1", "MSU-1", "SHIRT", 10);
  await ok(c.t.call("PUT", "/station/mode", { mode: "audit" }));
  await ok(c.t.call("POST", "/station/seats/front/login", { user: "op-1" }));
  await c.t.agent.services.auth.addUser("olga", "olga-password-123", "operator");
  const res = await c.t.request(TOKEN_PATH, {
    method: "POST",
    headers: { Authorization: BASIC, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "password", username: "olga", password: "olga-password-123" }),
  });
  operator = ((await ok(res)) as Json).access_token as string;
});
afterAll(async () => c?.close());

const statuses = auditStatuses;
const create = (locations = ["MSU-1"]) => createAudit(c, locations);
const act = (id: string, action: string, body?: unknown) => auditAct(c, id, action, body);
const asOperator = (id: string, action: string) =>
  c.t.request(`/station/audits/${id}/${action}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${operator}` },
  });

async function refused(res: Promise<Response>, status: number, code: string): Promise<void> {
  const r = await res;
  expect([r.status, ((await r.json()) as Json).code]).toEqual([status, code]);
}

/** A queued audit of MSU-1, its notifications consumed. */
async function queued(): Promise<string> {
  const id = await create();
  await ok(act(id, "start"));
  await c.mark();
  return id;
}

describe("audit state table", () => {
  it("Audit: (none) | create by API → created; audit created notification (audit_data [], quantity_details n/a)", async () => {
    await c.mark();
    const id = await create();
    const [created, ...more] = await c.since();
    expect(more).toEqual([]);
    expect(created?.notification_type).toBe("audit_information");
    expect(created?.notification_data).toMatchObject({
      audit_id: id,
      audit_status: "created",
      audit_data: [],
    });
  });

  it("Audit: created | start → processing_start; processing_start | audit lines built → auditlines_created (lines auditline_queued); auditlines_created | no conflict → queued", async () => {
    const id = await create();
    await c.mark();
    await ok(act(id, "start"));
    const notes = await c.since();
    expect(statuses(notes)).toEqual([
      ["audit_information", "auditlines_created"],
      ["audit_information", "queued"],
    ]);
    const lines = notes[0]?.notification_data.audit_data as Json[];
    expect(lines.map((l) => l.status)).toEqual(["auditline_queued"]);
  });

  it("Audit line: quantity_details is always an object (good_qty, missing_qty, damaged_qty, unscannable_qty, system_removed_qty), zeros before counting", async () => {
    const id = await create();
    await c.mark();
    await ok(act(id, "start"));
    for (const note of await c.since()) {
      for (const line of note.notification_data.audit_data as Json[]) {
        expect(line).toMatchObject({ actual_qty: 0, extra_qty: 0, quantity_details: ZERO });
      }
    }
    const view = await ok(c.t.call("GET", `/station/audits/${id}`));
    expect((view.audit_data as Json[])[0]?.quantity_details).toEqual(ZERO);
  });

  it("Audit: processing_start | no matching inventory found → aborted; aborted notification without audit_data", async () => {
    const id = await create(["NOWHERE"]);
    await c.mark();
    await ok(act(id, "start"));
    const [aborted, ...more] = await c.since();
    expect(more).toEqual([]);
    expect(aborted?.notification_data.audit_status).toBe("aborted");
    expect(aborted?.notification_data).not.toHaveProperty("audit_data");
  });

  it("Audit: queued | audit begins at station → started; started | some discrepancy found → pending_approval; pending_approval | rejection → rejected; rejected | re-audit → sent_for_reaudit", async () => {
    const id = await queued();
    const view = await ok(act(id, "begin", { seat: "front" }));
    const line = (view.audit_data as Json[])[0]?.audit_line_id;
    await ok(act(id, "count", { audit_line_id: line, good_qty: 8, damaged_qty: 1 }));
    await ok(act(id, "reject"));
    await ok(act(id, "reaudit"));
    const notes = await c.since();
    expect(statuses(notes).map(([, s]) => s)).toEqual([
      "started",
      "pending_approval",
      "rejected",
      "sent_for_reaudit",
    ]);
    const counted = (notes[1]?.notification_data.audit_data as Json[] | undefined)?.[0];
    expect(counted?.quantity_details).toEqual({ ...ZERO, good_qty: 8, missing_qty: 1, damaged_qty: 1 });
  });

  it("Audit: started | no discrepancy → completed; completed notification with complete_time", async () => {
    const id = await queued();
    const view = await ok(act(id, "begin", { seat: "front" }));
    const line = (view.audit_data as Json[])[0]?.audit_line_id;
    await ok(act(id, "count", { audit_line_id: line, good_qty: 10 }));
    const notes = await c.since();
    expect(statuses(notes).map(([, s]) => s)).toEqual(["started", "completed"]);
    expect(notes[1]?.notification_data.complete_time).toEqual(expect.any(String));
  });

  it("Audit: pending_approval | approval → approved; stock set to the good count", async () => {
    await setStock(c.t, "S-1", "MSU-1", "SHIRT", 10);
    const id = await queued();
    const view = await ok(act(id, "begin", { seat: "front" }));
    const line = (view.audit_data as Json[])[0]?.audit_line_id;
    await ok(act(id, "count", { audit_line_id: line, good_qty: 9 }));
    await ok(act(id, "approve"));
    expect(statuses(await c.since()).map(([, s]) => s)).toEqual(["started", "pending_approval", "approved"]);
    await setStock(c.t, "S-1", "MSU-1", "SHIRT", 10);
  });

  it("Audit: any state | pause → paused, reachable from the station (operator) and resumable to the status paused from; each notified", async () => {
    const id = await queued();
    expect(((await ok(asOperator(id, "pause"))) as Json).audit_status).toBe("paused");
    expect(((await ok(asOperator(id, "resume"))) as Json).audit_status).toBe("queued");
    await ok(act(id, "begin", { seat: "front" }));
    expect(((await ok(asOperator(id, "pause"))) as Json).audit_status).toBe("paused");
    expect(((await ok(asOperator(id, "resume"))) as Json).audit_status).toBe("started");
    expect(statuses(await c.since()).map(([, s]) => s)).toEqual([
      "paused",
      "queued",
      "started",
      "paused",
      "started",
    ]);
    await ok(act(id, "cancel"));
  });

  it("Audit: any state | cancel → cancelled; cancelled notification, from created, queued, started, paused, pending_approval, rejected", async () => {
    const begun = async () => {
      const id = await queued();
      const view = await ok(act(id, "begin", { seat: "front" }));
      return { id, line: (view.audit_data as Json[])[0]?.audit_line_id };
    };
    const counted = async (good: number) => {
      const { id, line } = await begun();
      await ok(act(id, "count", { audit_line_id: line, good_qty: good }));
      return id;
    };
    const ways: Array<[string, () => Promise<string>]> = [
      ["created", () => create()],
      ["queued", queued],
      ["started", async () => (await begun()).id],
      [
        "paused",
        async () => {
          const id = await queued();
          await ok(act(id, "pause"));
          return id;
        },
      ],
      ["pending_approval", () => counted(1)],
      [
        "rejected",
        async () => {
          const id = await counted(2);
          await ok(act(id, "reject"));
          return id;
        },
      ],
    ];
    for (const [status, reach] of ways) {
      const id = await reach();
      expect([status, ((await ok(c.t.call("GET", `/station/audits/${id}`))) as Json).audit_status]).toEqual([
        status,
        status,
      ]);
      await c.mark();
      const after = await ok(act(id, "cancel"));
      expect(after.audit_status).toBe("cancelled");
      expect(statuses(await c.since())).toEqual([["audit_information", "cancelled"]]);
    }
  });

  it("Audit: any state | cancel → the final statuses (completed, approved, aborted, cancelled, deleted) refuse it with 409 invalid_state", async () => {
    const aborted = await create(["NOWHERE"]);
    await ok(act(aborted, "start"));
    const deleted = await create();
    await ok(c.t.call("DELETE", `${AUDIT}/delete/${deleted}`));
    const cancelled = await create();
    await ok(act(cancelled, "cancel"));
    const completed = await queued();
    const view = await ok(act(completed, "begin", { seat: "front" }));
    await ok(
      act(completed, "count", { audit_line_id: (view.audit_data as Json[])[0]?.audit_line_id, good_qty: 10 }),
    );
    await c.mark();
    for (const id of [aborted, deleted, cancelled, completed])
      await refused(act(id, "cancel"), 409, "invalid_state");
    expect(await c.since()).toEqual([]);
  });
});

describe("audit endpoints", () => {
  it("Audits: create → 200 {action, audit_id}; 400 bad data", async () => {
    const res = await ok(
      c.t.call("POST", AUDIT, {
        action: "create",
        audit_param_name: "x",
        audit_param_type: "sku",
        audit_param_value: { attributes_list: [{ sku: "SHIRT", attributes_sets: [] }] },
        kq: false,
      }),
    );
    expect(Object.keys(res).sort()).toEqual(["action", "audit_id"]);
    await refused(
      c.t.call("POST", AUDIT, { action: "create", audit_param_type: "shelf" }),
      400,
      "validation_failed",
    );
  });

  it("Audits: created | delete | before start → deleted; 200, deleted notification without timestamp", async () => {
    const id = await create();
    await c.mark();
    await ok(c.t.call("DELETE", `${AUDIT}/delete/${id}`));
    const [deleted, ...more] = await c.since();
    expect(more).toEqual([]);
    expect(deleted?.notification_data).toMatchObject({ audit_status: "deleted", audit_data: [] });
    expect(deleted?.notification_data).not.toHaveProperty("timestamp");
  });

  it("Audits: delete → 404 audit id not found, also for an audit already deleted (decision); 409 once started", async () => {
    await refused(c.t.call("DELETE", `${AUDIT}/delete/no-such-audit`), 404, "not_found");
    const id = await create();
    await ok(c.t.call("DELETE", `${AUDIT}/delete/${id}`));
    await c.mark();
    await refused(c.t.call("DELETE", `${AUDIT}/delete/${id}`), 404, "not_found");
    expect(await c.since()).toEqual([]);
    const started = await queued();
    await refused(c.t.call("DELETE", `${AUDIT}/delete/${started}`), 409, "invalid_state");
  });

  it("Audits: delete over MQTT (delete_audit) answers as over HTTP: 404 for a deleted audit", async () => {
    const id = await create();
    const first = JSON.parse(
      await ask(c.broker, "delete_audit", { transaction: "d-1", audit_id: id }),
    ) as Json;
    expect(first).toMatchObject({ status: "ok", data: { action: "delete", audit_id: id } });
    const again = JSON.parse(
      await ask(c.broker, "delete_audit", { transaction: "d-2", audit_id: id }),
    ) as Json;
    expect(again).toMatchObject({ status: "error", error: { code: "not_found" } });
  });
});
