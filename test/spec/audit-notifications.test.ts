/**
 * Conformance: "Resources" → "Audit object" (Audit notification data and Audit line, each field on each
 * notification), "States and transitions" → "Audit" (every audit line status), "Events" →
 * audit_information. Notifications are read off the embedded broker.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Envelope, type Json, ok, seedItem, setStock } from "../support/station.js";
import { AUDIT, auditAct, createAudit, expectAuditData } from "./support/audit.js";
import { type Central, startCentral } from "./support/central.js";

let c: Central;
const seen: Envelope[] = [];
let tie: number;

beforeAll(async () => {
  c = await startCentral();
  await seedItem(c.t, "SHIRT");
  tie = await seedItem(c.t, "TIE");
  await setStock(c.t, "S-1", "MSU-1", "SHIRT", 10);
  await setStock(c.t, "S-1", "MSU-1", "TIE", 5);
  await setStock(c.t, "S-9", "MSU-9", "TIE", 10);
  await ok(c.t.call("PUT", "/station/mode", { mode: "audit" }));
  await ok(c.t.call("POST", "/station/seats/front/login", { user: "op-1" }));
});
afterAll(async () => c?.close());

/** The notifications since the last look, kept for the test of every line status. */
async function notes(): Promise<Json[]> {
  const got = await c.since();
  seen.push(...got);
  return got.map(expectAuditData);
}

const lineIds = (view: Json) =>
  Object.fromEntries((view.audit_data as Json[]).map((l) => [l.pdfa_values.product_sku, l.audit_line_id]));

describe("audit notification data", () => {
  it("Audit notification data: every field of its type on created, auditlines_created, queued, started, pending_approval, rejected, sent_for_reaudit, approved (audit lines: audit_line_id, item_id string, status, pdfa_values, location, expected_qty, actual_qty, extra_qty, quantity_details)", async () => {
    await c.mark();
    const id = await createAudit(c, ["S-1"]);
    await ok(auditAct(c, id, "start"));
    const view = await ok(auditAct(c, id, "begin", { seat: "front" }));
    const line = lineIds(view);
    await ok(auditAct(c, id, "count", { audit_line_id: line.SHIRT, good_qty: 10 }));
    await ok(auditAct(c, id, "count", { audit_line_id: line.TIE, good_qty: 3, unscannable_qty: 1 }));
    await ok(auditAct(c, id, "reject"));
    await ok(auditAct(c, id, "reaudit"));
    await ok(auditAct(c, id, "begin", { seat: "front" }));
    await ok(auditAct(c, id, "count", { audit_line_id: line.TIE, good_qty: 4 }));
    await ok(auditAct(c, id, "approve"));
    const got = await notes();
    expect(got.map((d) => d.audit_status)).toEqual([
      "created",
      "auditlines_created",
      "queued",
      "started",
      "pending_approval",
      "rejected",
      "sent_for_reaudit",
      "started",
      "pending_approval",
      "approved",
    ]);
    const byStatus = (s: string) => got.filter((d) => d.audit_status === s).at(-1) as Json;
    const tie = (d: Json) =>
      (d.audit_data as Json[]).find((l) => l.pdfa_values.product_sku === "TIE") as Json;
    expect(tie(got[4] as Json)).toMatchObject({
      location: "S-1",
      expected_qty: 5,
      actual_qty: 3,
      extra_qty: 1,
      quantity_details: {
        good_qty: 3,
        missing_qty: 1,
        damaged_qty: 0,
        unscannable_qty: 1,
        system_removed_qty: 0,
      },
    });
    expect(byStatus("approved").complete_time).toEqual(expect.any(String));
    expect(byStatus("started").complete_time).toBeNull();
    expect(byStatus("started")).toMatchObject({ pps_id: 7, pps_seat_name: "front", user_name: "op-1" });
  });

  it("Audit notification data: completed, paused, cancelled, deleted (no timestamp) and aborted (no audit_data) carry their fields too", async () => {
    await c.mark();
    const done = await createAudit(c, ["S-9"]);
    await ok(auditAct(c, done, "start"));
    const view = await ok(auditAct(c, done, "begin", { seat: "front" }));
    await ok(auditAct(c, done, "count", { audit_line_id: lineIds(view).TIE, good_qty: 10 }));
    const stopped = await createAudit(c, ["S-9"]);
    await ok(auditAct(c, stopped, "start"));
    await ok(auditAct(c, stopped, "pause"));
    await ok(auditAct(c, stopped, "resume"));
    await ok(auditAct(c, stopped, "cancel"));
    const gone = await createAudit(c, ["S-9"]);
    await ok(c.t.call("DELETE", `${AUDIT}/delete/${gone}`));
    const empty = await createAudit(c, ["NOWHERE"]);
    await ok(auditAct(c, empty, "start"));
    const statuses = (await notes()).map((d) => d.audit_status);
    for (const s of ["completed", "paused", "cancelled", "deleted", "aborted"]) expect(statuses).toContain(s);
  });

  it("Audit line statuses: each of auditline_queued, _started, _completed, _pending_approval, _rejected, _approved, _sent_for_reaudit, _cancelled appears in a notification", () => {
    const statuses = new Set(
      seen.flatMap((n) => ((n.notification_data.audit_data ?? []) as Json[]).map((l) => l.status as string)),
    );
    expect([...statuses].sort()).toEqual(
      [
        "auditline_queued",
        "auditline_started",
        "auditline_completed",
        "auditline_pending_approval",
        "auditline_rejected",
        "auditline_approved",
        "auditline_sent_for_reaudit",
        "auditline_cancelled",
      ].sort(),
    );
  });

  it("Audit line: actual_qty is the count finally kept: extra good items found are all allowed back (no COG limits), so actual_qty = good count, extra_qty 0, system_removed_qty 0 (decision); approval sets the stock to it", async () => {
    await setStock(c.t, "S-9", "MSU-9", "TIE", 10);
    const id = await createAudit(c, ["S-9"]);
    await ok(auditAct(c, id, "start"));
    const view = await ok(auditAct(c, id, "begin", { seat: "front" }));
    await c.mark();
    await ok(auditAct(c, id, "count", { audit_line_id: lineIds(view).TIE, good_qty: 12 }));
    const [pending] = await notes();
    expect(pending?.audit_status).toBe("pending_approval");
    expect(((pending?.audit_data ?? []) as Json[])[0]).toMatchObject({
      status: "auditline_pending_approval",
      expected_qty: 10,
      actual_qty: 12,
      extra_qty: 0,
      quantity_details: {
        good_qty: 12,
        missing_qty: 0,
        damaged_qty: 0,
        unscannable_qty: 0,
        system_removed_qty: 0,
      },
    });
    await ok(auditAct(c, id, "approve"));
    expect(c.t.agent.services.repos.stock.stockAt("S-9", tie)?.quantity).toBe(12);
  });
});
