import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAgent, type TestAgent } from "../helpers/agent.js";
import {
  AUDIT,
  type AuditData,
  auditNotes,
  createAudit,
  holdByPick,
  holdByPut,
  lastSeq,
  ok,
  seedItem,
  seedStock,
  stationReady,
  view,
} from "./support.js";

let t: TestAgent;
let sock: number;
beforeAll(async () => {
  t = await startTestAgent({ ppsId: "pps-north" });
  sock = await seedItem(t, "SOCK");
  seedStock(t, "A-1", "MSU-A", sock, 5);
  seedStock(t, "B-1", "MSU-B", sock, 2);
  seedStock(t, "C-1", "MSU-C", sock, 1);
  t.agent.services.repos.stock.upsertLocation("EMPTY-1", "MSU-E");
  stationReady(t);
});
afterAll(async () => t.close());

const statuses = (notes: AuditData[]) => notes.map((n) => n.audit_status);

describe("created → deleted", () => {
  it("200 before start; the deleted notification has empty audit_data and no timestamp", async () => {
    const id = await createAudit(t);
    const seq = await lastSeq(t);
    const res = await t.call("DELETE", `${AUDIT}/delete/${id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ action: "delete", audit_id: id });
    const [deleted, ...more] = await auditNotes(t, seq);
    expect(more).toEqual([]);
    expect(deleted).toMatchObject({ audit_id: id, audit_status: "deleted", audit_data: [], pps_id: null });
    expect(deleted).not.toHaveProperty("timestamp");
    expect((await view(t, id)).audit_status).toBe("deleted");
  });
});

describe("processing_start → aborted", () => {
  it("no stock at the listed slot: aborted, its notification carries no audit_data", async () => {
    const id = await createAudit(t, { audit_param_value: { locations_list: ["EMPTY-1", "NOWHERE"] } });
    const seq = await lastSeq(t);
    expect((await ok(t, id, "start")).audit_status).toBe("aborted");
    const [aborted, ...more] = await auditNotes(t, seq);
    expect(more).toEqual([]);
    expect(aborted?.audit_status).toBe("aborted");
    expect(aborted).not.toHaveProperty("audit_data");
    expect(aborted).toHaveProperty("timestamp");
  });

  it("a SKU nobody stocks: aborted", async () => {
    const id = await createAudit(t, {
      audit_param_type: "sku",
      audit_param_value: { attributes_list: [{ sku: "NO-SUCH-SKU" }] },
    });
    expect((await ok(t, id, "start")).audit_status).toBe("aborted");
  });
});

describe("auditlines_created → waiting_on_conflict → queued", () => {
  it("a pick holding the slot: waiting; when its reservation goes, queued", async () => {
    const release = holdByPick(t, "PICK-1", "A-1", sock);
    const id = await createAudit(t, { audit_param_value: { locations_list: ["A-1"] } });
    const seq = await lastSeq(t);
    expect((await ok(t, id, "start")).audit_status).toBe("waiting_on_conflict");
    expect(statuses(await auditNotes(t, seq))).toEqual(["auditlines_created", "waiting_on_conflict"]);

    const before = await lastSeq(t);
    t.agent.services.bus.emit("request", { type: "PICK", externalServiceRequestId: "OTHER" });
    expect(await auditNotes(t, before)).toEqual([]);
    release();
    const [queued, ...more] = await auditNotes(t, before);
    expect(more).toEqual([]);
    expect(queued?.audit_status).toBe("queued");
    expect(queued?.audit_data?.map((l) => l.status)).toEqual(["auditline_queued"]);
  });

  it("a staged put with stock put at the slot: waiting; paused and resumed while held; queued once complete", async () => {
    const release = holdByPut(t, "PUT-1", "B-1", sock);
    const id = await createAudit(t, { audit_param_value: { locations_list: ["MSU-B"] } });
    const seq = await lastSeq(t);
    await ok(t, id, "start");
    await ok(t, id, "pause");
    expect((await ok(t, id, "resume")).audit_status).toBe("waiting_on_conflict");
    await ok(t, id, "pause");
    release();
    expect((await view(t, id)).audit_status).toBe("paused");
    // resumed after the conflict went while paused: back to waiting, then queued at once
    expect((await ok(t, id, "resume")).audit_status).toBe("queued");
    expect(statuses(await auditNotes(t, seq))).toEqual([
      "auditlines_created",
      "waiting_on_conflict",
      "paused",
      "waiting_on_conflict",
      "paused",
      "waiting_on_conflict",
      "queued",
    ]);
  });

  it("starting the watcher (agent start) releases audits whose conflict ended while it was stopped", async () => {
    const db = t.agent.db.sqlite;
    holdByPick(t, "PICK-2", "C-1", sock);
    const id = await createAudit(t, { audit_param_value: { locations_list: ["C-1"] } });
    await ok(t, id, "start");
    db.prepare("DELETE FROM reservations WHERE location = 'C-1'").run();
    const seq = await lastSeq(t);
    t.agent.services.auditConflicts.stop();
    t.agent.services.auditConflicts.start();
    expect(statuses(await auditNotes(t, seq))).toEqual(["queued"]);
    expect((await view(t, id)).audit_status).toBe("queued");
  });
});

describe("cancelled and paused", () => {
  it("cancel while started: cancelled, lines cancelled", async () => {
    const id = await createAudit(t, { audit_param_value: { locations_list: ["A-1"] } });
    await ok(t, id, "start");
    await ok(t, id, "begin");
    const seq = await lastSeq(t);
    await ok(t, id, "cancel");
    const [cancelled] = await auditNotes(t, seq);
    expect(cancelled?.audit_status).toBe("cancelled");
    expect(cancelled?.audit_data?.map((l) => l.status)).toEqual(["auditline_cancelled"]);
    expect(cancelled?.complete_time).toBeNull();
  });

  it("pause a created audit, resume it, pause it again and cancel it", async () => {
    const id = await createAudit(t);
    const seq = await lastSeq(t);
    await ok(t, id, "pause");
    await ok(t, id, "resume");
    await ok(t, id, "pause");
    await ok(t, id, "cancel");
    const notes = await auditNotes(t, seq);
    expect(statuses(notes)).toEqual(["paused", "created", "paused", "cancelled"]);
    expect(notes.map((n) => n.audit_data)).toEqual([[], [], [], []]);
  });
});
