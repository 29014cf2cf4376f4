import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import {
  type AuditData,
  auditNotes,
  createAudit,
  type Line,
  lastSeq,
  ok,
  seedItem,
  seedStock,
  seedStockOfItem,
  stationReady,
  stockAt,
  view,
} from "../../support/audits.js";

// Spec "Audit notification data": these members, in this order.
const KEYS = [
  "audit_id",
  "audit_param_name",
  "audit_param_type",
  "audit_status",
  "audit_data",
  "pps_id",
  "pps_seat_name",
  "user_name",
  "creation_time",
  "complete_time",
  "timestamp",
];
const LINE_KEYS = [
  "audit_line_id",
  "item_id",
  "status",
  "pdfa_values",
  "location",
  "expected_qty",
  "actual_qty",
  "extra_qty",
  "quantity_details",
];
const CREATED = "2026-11-21T10:00:00.000Z";

let t: TestAgent;
let shirt: number;
let cap: number;
beforeAll(async () => {
  t = await startTestAgent({ ppsId: "7" });
  shirt = await seedItem(t, "SHIRT");
  cap = await seedItem(t, "CAP", {
    schema: { unique: [["product_sku", "client_id"]], type: "object" },
    clientCategoryId: "caps",
    productAttributes: { product_sku: "CAP", client_id: "C1", colour: "red" },
  });
  await seedStock(t, "S-1", "MSU-1", "SHIRT", 10);
  await seedStock(t, "S-2", "MSU-1", { product_sku: "CAP", client_id: "C1" }, 4);
  await seedStock(t, "S-9", "MSU-9", "SHIRT", 3);
  await stationReady(t, "op-1");
});
afterAll(async () => t.close());

const statuses = (notes: AuditData[]) => notes.map((n) => n.audit_status);
const lineStatuses = (n: AuditData) => (n.audit_data ?? []).map((l) => l.status);

/** quantity_details before a line is counted (docs/decisions.md: always an object). */
const ZERO_DETAILS = {
  good_qty: 0,
  missing_qty: 0,
  damaged_qty: 0,
  unscannable_qty: 0,
  system_removed_qty: 0,
};

describe("audit through created, auditlines_created, queued, paused, started, pending_approval, rejected, sent_for_reaudit, approved", () => {
  let id: string;
  let lines: Line[];

  it("create: 200 {action, audit_id}; created notification with empty audit_data", async () => {
    const seq = await lastSeq(t);
    id = await createAudit(t, { audit_param_value: { locations_list: ["MSU-1"] } });
    const [created, ...more] = await auditNotes(t, seq);
    expect(more).toEqual([]);
    expect(Object.keys(created ?? {})).toEqual(KEYS);
    expect(created).toEqual({
      audit_id: id,
      audit_param_name: "cycle count",
      audit_param_type: "location",
      audit_status: "created",
      audit_data: [],
      pps_id: 7,
      pps_seat_name: null,
      user_name: "manager",
      creation_time: CREATED,
      complete_time: null,
      timestamp: CREATED,
    });
  });

  it("start: lines built from every slot of the MSU, auditlines_created then queued", async () => {
    const seq = await lastSeq(t);
    t.clock.now += 1000;
    const after = await ok(t, id, "start");
    expect(after.audit_status).toBe("queued");
    const notes = await auditNotes(t, seq);
    expect(statuses(notes)).toEqual(["auditlines_created", "queued"]);
    const built = notes[0] as AuditData;
    lines = built.audit_data as Line[];
    expect(lines.map((l) => Object.keys(l))).toEqual([LINE_KEYS, LINE_KEYS]);
    expect(lines).toEqual([
      {
        audit_line_id: `${id}-1`,
        item_id: String(shirt),
        status: "auditline_queued",
        pdfa_values: { product_sku: "SHIRT" },
        location: "S-1",
        expected_qty: 10,
        actual_qty: 0,
        extra_qty: 0,
        quantity_details: ZERO_DETAILS,
      },
      {
        audit_line_id: `${id}-2`,
        item_id: String(cap),
        status: "auditline_queued",
        pdfa_values: { product_sku: "CAP", client_id: "C1" },
        location: "S-2",
        expected_qty: 4,
        actual_qty: 0,
        extra_qty: 0,
        quantity_details: ZERO_DETAILS,
      },
    ]);
    expect(built.timestamp).toBe("2026-11-21T10:00:01.000Z");
    expect(lineStatuses(notes[1] as AuditData)).toEqual(["auditline_queued", "auditline_queued"]);
  });

  it("pause and resume: paused, then back to queued, each notified", async () => {
    const seq = await lastSeq(t);
    expect((await ok(t, id, "pause")).audit_status).toBe("paused");
    expect((await view(t, id)).paused_from).toBe("queued");
    expect((await ok(t, id, "resume")).audit_status).toBe("queued");
    expect(statuses(await auditNotes(t, seq))).toEqual(["paused", "queued"]);
  });

  it("begin at the logged-in seat: started, lines started, seat and operator named", async () => {
    const seq = await lastSeq(t);
    await ok(t, id, "begin");
    const [started] = await auditNotes(t, seq);
    expect(started).toMatchObject({ audit_status: "started", pps_seat_name: "front", user_name: "op-1" });
    expect(lineStatuses(started as AuditData)).toEqual(["auditline_started", "auditline_started"]);
  });

  it("counts: a matching line completes quietly; a discrepancy makes the audit pending_approval", async () => {
    const seq = await lastSeq(t);
    const first = await ok(t, id, "count", { audit_line_id: `${id}-1`, good_qty: 10 });
    expect(first.audit_status).toBe("started");
    expect(await auditNotes(t, seq)).toEqual([]);
    await ok(t, id, "count", { audit_line_id: `${id}-2`, good_qty: 2, damaged_qty: 1 });
    const [pending, ...more] = await auditNotes(t, seq);
    expect(more).toEqual([]);
    expect(pending?.audit_status).toBe("pending_approval");
    expect(
      pending?.audit_data?.map((l) => [l.status, l.actual_qty, l.extra_qty, l.quantity_details]),
    ).toEqual([
      [
        "auditline_completed",
        10,
        0,
        { good_qty: 10, missing_qty: 0, damaged_qty: 0, unscannable_qty: 0, system_removed_qty: 0 },
      ],
      [
        "auditline_pending_approval",
        2,
        1,
        { good_qty: 2, missing_qty: 1, damaged_qty: 1, unscannable_qty: 0, system_removed_qty: 0 },
      ],
    ]);
    expect(stockAt(t, "S-2", cap)).toBe(4);
  });

  it("reject, then re-audit: the rejected line is reset for a recount, the matching one stays", async () => {
    const seq = await lastSeq(t);
    await ok(t, id, "reject");
    await ok(t, id, "reaudit");
    const [rejected, reaudit] = await auditNotes(t, seq);
    expect(rejected?.audit_status).toBe("rejected");
    expect(lineStatuses(rejected as AuditData)).toEqual(["auditline_completed", "auditline_rejected"]);
    expect(reaudit?.audit_status).toBe("sent_for_reaudit");
    expect(lineStatuses(reaudit as AuditData)).toEqual(["auditline_completed", "auditline_sent_for_reaudit"]);
    expect(reaudit?.audit_data?.[1]).toMatchObject({
      actual_qty: 0,
      extra_qty: 0,
      quantity_details: ZERO_DETAILS,
    });
    expect(stockAt(t, "S-2", cap)).toBe(4);
  });

  it("recount after re-audit, then approve: stock set to the good count, complete_time set", async () => {
    const seq = await lastSeq(t);
    await ok(t, id, "begin");
    await ok(t, id, "count", { audit_line_id: `${id}-2`, good_qty: 3, unscannable_qty: 1 });
    t.clock.now += 1000;
    await ok(t, id, "approve");
    const notes = await auditNotes(t, seq);
    expect(statuses(notes)).toEqual(["started", "pending_approval", "approved"]);
    expect(lineStatuses(notes[0] as AuditData)).toEqual(["auditline_completed", "auditline_started"]);
    const approved = notes[2] as AuditData;
    expect(lineStatuses(approved)).toEqual(["auditline_completed", "auditline_approved"]);
    expect(approved.complete_time).toBe("2026-11-21T10:00:02.000Z");
    expect(approved.audit_data?.[1]?.quantity_details).toEqual({
      good_qty: 3,
      missing_qty: 0,
      damaged_qty: 0,
      unscannable_qty: 1,
      system_removed_qty: 0,
    });
    expect(stockAt(t, "S-1", shirt)).toBe(10);
    expect(stockAt(t, "S-2", cap)).toBe(3);
    expect(stockAt(t, "S-9", shirt)).toBe(3);
    expect((await view(t, id)).audit_status).toBe("approved");
  });
});

describe("SKU audit: every slot holding the SKU; all counts match → completed, stock untouched", () => {
  it("created → auditlines_created → queued → started → completed", async () => {
    const seq = await lastSeq(t);
    const id = await createAudit(t, {
      audit_param_type: "sku",
      audit_param_value: { attributes_list: [{ sku: "SHIRT", attributes_sets: [] }] },
      kq: true,
    });
    const started = await ok(t, id, "start");
    expect(started.audit_data?.map((l) => [l.location, l.expected_qty])).toEqual([
      ["S-1", 10],
      ["S-9", 3],
    ]);
    await ok(t, id, "begin", { seat: "front" });
    await ok(t, id, "count", { audit_line_id: `${id}-1`, good_qty: 10 });
    const done = await ok(t, id, "count", { audit_line_id: `${id}-2`, good_qty: 3 });
    expect(done.audit_status).toBe("completed");
    const notes = await auditNotes(t, seq);
    expect(statuses(notes)).toEqual(["created", "auditlines_created", "queued", "started", "completed"]);
    expect(lineStatuses(notes[4] as AuditData)).toEqual(["auditline_completed", "auditline_completed"]);
    expect(notes[4]?.complete_time).not.toBeNull();
    expect(stockAt(t, "S-1", shirt)).toBe(10);
  });

  it("attributes_sets select among products of one SKU", async () => {
    const blue = await seedItem(t, "CAP", {
      schema: { unique: [["product_sku", "client_id"]], type: "object" },
      clientCategoryId: "caps",
      productAttributes: { product_sku: "CAP", client_id: "C2", colour: "blue" },
      barcodeList: [{ barcode: "BC-CAP-BLUE" }],
    });
    // two items now share the SKU CAP, which the station stock endpoint refuses to guess between
    seedStockOfItem(t, "S-3", "MSU-3", blue, 6);
    const id = await createAudit(t, {
      audit_param_type: "sku",
      audit_param_value: {
        attributes_list: [{ sku: "CAP", attributes_sets: [{ colour: ["blue", "green"] }] }],
      },
    });
    const after = await ok(t, id, "start");
    expect(after.audit_data?.map((l) => [l.item_id, l.location])).toEqual([[String(blue), "S-3"]]);
  });
});
