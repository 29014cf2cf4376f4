import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import {
  AUDIT,
  type AuditData,
  auditNotes,
  createAudit,
  lastSeq,
  login,
  notesAfter,
  ok,
  seedItem,
  seedStock,
  setMode,
  stationReady,
  view,
} from "../../support/audits.js";
import { until } from "../../support/deadline.js";

const SR = "/api-gateway/sr-service/platform-srms/service-request";
const STAGE = "/api-gateway/integration-service/wms-integration/core/api/stage_put_expectation";

let t: TestAgent;
let tie: number;
beforeAll(async () => {
  t = await startTestAgent({ ppsId: "pps-north" });
  for (const sku of ["SOCK", "TIE", "BELT"]) await seedItem(t, sku);
  tie = t.agent.services.repos.items.idsByKey("product_sku", "TIE", 1)[0] as number;
  await seedStock(t, "A-1", "MSU-A", "SOCK", 5);
  await seedStock(t, "T-1", "MSU-T", "TIE", 3);
  // a second slot: T-1 stays under an audit (queued) once its first test ends, and audited slots are not allocated
  await seedStock(t, "T-2", "MSU-T2", "TIE", 3);
  await seedStock(t, "B-1", "MSU-B", "BELT", 2);
  await seedStock(t, "EMPTY-1", "MSU-E", "SOCK", 0);
  await stationReady(t);
});
afterAll(async () => t.close());

const status = async (id: string) => (await view(t, id)).audit_status;
const call = async (method: string, path: string, body: unknown, expected = 200) => {
  const res = await t.call(method, path, body);
  expect(res.status, await res.text()).toBe(expected);
};
const pick = (id: string, sku: string, qty: number) => ({
  externalServiceRequestId: id,
  type: "PICK",
  serviceRequests: [
    {
      externalServiceRequestId: `${id}-1`,
      type: "PICK_LINE",
      expectations: {
        containers: [
          {
            products: [
              { productQuantity: qty, productAttributes: { filter_parameters: [`product_sku = '${sku}'`] } },
            ],
          },
        ],
      },
    },
  ],
});
const put = (id: string, sku: string, qty: number) => ({
  externalServiceRequestId: id,
  type: "PUT",
  attributes: { tote_id: `TOTE-${id}` },
  expectations: {
    containers: [
      { products: [{ productQuantity: qty, productAttributes: { pdfa_values: { product_sku: sku } } }] },
    ],
  },
});
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
  it("a pick holding stock at the slot: waiting; when the pick is cancelled, queued", async () => {
    await call("POST", SR, pick("PICK-1", "TIE", 2));
    expect(t.agent.services.repos.stock.stockAt("T-1", tie)?.reserved).toBe(2);
    const id = await createAudit(t, { audit_param_value: { locations_list: ["T-1"] } });
    const seq = await lastSeq(t);
    expect((await ok(t, id, "start")).audit_status).toBe("waiting_on_conflict");
    expect(statuses(await auditNotes(t, seq))).toEqual(["auditlines_created", "waiting_on_conflict"]);

    const before = await lastSeq(t);
    await call("POST", `${SR}/cancel`, { externalServiceRequestId: "PICK-1", type: "PICK" }, 202);
    await until("the audit queued", async () => (await status(id)) === "queued");
    const notes = (await notesAfter(t, before)).map((n) => n.notification);
    expect(
      notes.map((n) => [n.notification_type, n.notification_data.state ?? n.notification_data.audit_status]),
    ).toEqual([
      ["order_modification", "success"],
      ["order_information", "cancelled"],
      ["audit_information", "queued"],
    ]);
    const queued = notes[2]?.notification_data as AuditData;
    expect(queued.audit_data?.map((l) => l.status)).toEqual(["auditline_queued"]);
  });

  it("a staged put with stock put at the slot: waiting; paused and resumed while held; queued once complete", async () => {
    await setMode(t, "put");
    await login(t, "back", "op-put");
    await call("POST", "/station/racks", { msu: "MSU-B", locations: ["B-1"] });
    await call("POST", SR, put("PUT-1", "BELT", 2));
    await call("POST", STAGE, { serviceRequestId: "PUT-1", ppsId: "pps-north", ppsBinId: "1" });
    await until("PUT-1 staged", async () => {
      const res = await t.call("GET", `${SR}/PUT-1?type=PUT`);
      return ((await res.json()) as { state?: string }).state === "staged";
    });
    await call("POST", "/station/puts", {
      externalServiceRequestId: "PUT-1",
      product_sku: "BELT",
      location: "B-1",
      quantity: 1,
    });

    const id = await createAudit(t, { audit_param_value: { locations_list: ["MSU-B"] } });
    const seq = await lastSeq(t);
    await ok(t, id, "start");
    await ok(t, id, "pause");
    expect((await ok(t, id, "resume")).audit_status).toBe("waiting_on_conflict");
    await ok(t, id, "pause");
    await call("POST", "/station/puts", {
      externalServiceRequestId: "PUT-1",
      product_sku: "BELT",
      location: "B-1",
      quantity: 1,
    });
    expect(await status(id)).toBe("paused");
    // resumed after the conflict went while paused: back to waiting, then queued at once
    expect((await ok(t, id, "resume")).audit_status).toBe("queued");
    expect(statuses(await auditNotes(t, seq, true))).toEqual([
      "auditlines_created",
      "waiting_on_conflict",
      "paused",
      "waiting_on_conflict",
      "paused",
      "waiting_on_conflict",
      "queued",
    ]);
    await setMode(t, "audit");
  });

  it("starting the watcher (agent start) releases audits whose conflict ended while it was stopped", async () => {
    await call("POST", SR, pick("PICK-2", "TIE", 1));
    const id = await createAudit(t, { audit_param_value: { locations_list: ["T-2"] } });
    expect((await ok(t, id, "start")).audit_status).toBe("waiting_on_conflict");
    t.agent.services.auditConflicts.stop();
    await call("POST", `${SR}/cancel`, { externalServiceRequestId: "PICK-2", type: "PICK" }, 202);
    await until(
      "T-2's reservation released",
      async () => t.agent.services.repos.stock.stockAt("T-2", tie)?.reserved === 0,
    );
    expect(await status(id)).toBe("waiting_on_conflict");
    const seq = await lastSeq(t);
    t.agent.services.auditConflicts.start();
    expect(statuses(await auditNotes(t, seq))).toEqual(["queued"]);
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
