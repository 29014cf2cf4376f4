/**
 * Conformance: "States and transitions" → "Audit", the conflict rows ("auditlines_created | ongoing
 * operations on the selected inventory or slot → waiting_on_conflict | notification", "waiting_on_conflict
 * | conflict resolved → queued | notification"), with docs/decisions.md#audits: a pick holding a reservation at
 * the location, or a staged put with put stock there. Notifications are read off the embedded broker.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Json, ok, pickBody, pickLine, putBody, SR, seedItem, setStock } from "../support/station.js";
import { ask } from "../support/sync/agent.js";
import { auditAct, auditStatuses, createAudit, expectAuditData } from "./support/audit.js";
import { type Central, startCentral } from "./support/central.js";

let c: Central;
/** The audit held by the pick of the first test. */
let held: string;

beforeAll(async () => {
  c = await startCentral();
  await seedItem(c.t, "SHIRT");
  await setStock(c.t, "S-1", "MSU-1", "SHIRT", 10);
});
afterAll(async () => c?.close());

const statusOf = async (id: string) =>
  ((await ok(c.t.call("GET", `/station/audits/${id}`))) as Json).audit_status as string;

describe("audit conflicts", () => {
  it("Audit: auditlines_created | ongoing operations on the selected inventory or slot (a pick holding a reservation there) → waiting_on_conflict | notification", async () => {
    await ok(c.t.call("POST", SR, pickBody("HOLD-1", [pickLine("HOLD-1-L", "SHIRT", 2)])));
    const id = await createAudit(c, ["S-1"]);
    held = id;
    await c.mark();
    expect(((await ok(auditAct(c, id, "start"))) as Json).audit_status).toBe("waiting_on_conflict");
    const notes = await c.since();
    expect(auditStatuses(notes)).toEqual([
      ["audit_information", "auditlines_created"],
      ["audit_information", "waiting_on_conflict"],
    ]);
    const waiting = expectAuditData(notes[1]);
    expect(waiting).toMatchObject({ audit_id: id, audit_param_type: "location" });
    expect((waiting.audit_data as Json[]).map((l) => [l.location, l.status])).toEqual([
      ["S-1", "auditline_queued"],
    ]);
  });

  it("Audit: waiting_on_conflict | conflict resolved (the pick cancelled, over MQTT) → queued | notification", async () => {
    await c.mark();
    const res = JSON.parse(
      await ask(c.broker, "cancel_service_request", {
        transaction: "hold-1",
        externalServiceRequestId: "HOLD-1",
        type: "PICK",
      }),
    ) as Json;
    expect(res.status).toBe("ok");
    const notes = await c.sinceAtLeast(3);
    expect(auditStatuses(notes)).toEqual([
      ["order_modification", undefined],
      ["order_information", undefined],
      ["audit_information", "queued"],
    ]);
    const queued = expectAuditData(notes[2]);
    expect(queued.audit_id).toBe(held);
    expect((queued.audit_data as Json[]).map((l) => l.status)).toEqual(["auditline_queued"]);
    expect(await statusOf(held)).toBe("queued");
    await ok(auditAct(c, held, "cancel"));
  });

  it("Audit: auditlines_created | a staged put with put stock at the slot → waiting_on_conflict; waiting_on_conflict | conflict resolved (the put complete) → queued", async () => {
    await ok(c.t.call("PUT", "/station/mode", { mode: "put" }));
    await ok(c.t.call("POST", "/station/seats/back/login", { user: "bob" }));
    await ok(c.t.call("POST", "/station/racks", { msu: "MSU-2", locations: ["S-2"] }));
    await ok(c.t.call("POST", SR, putBody("HOLD-PUT", [["SHIRT", 2]])));
    await ok(c.t.call("POST", "/station/puts/HOLD-PUT/put-back-stage", { ppsBinId: "2" }));
    const put = { externalServiceRequestId: "HOLD-PUT", product_sku: "SHIRT", location: "S-2", quantity: 1 };
    await ok(c.t.call("POST", "/station/puts", put));
    const id = await createAudit(c, ["MSU-2"]);
    await c.mark();
    await ok(auditAct(c, id, "start"));
    expect(auditStatuses(await c.since())).toEqual([
      ["audit_information", "auditlines_created"],
      ["audit_information", "waiting_on_conflict"],
    ]);
    await ok(c.t.call("POST", "/station/puts", put));
    const notes = await c.sinceAtLeast(2);
    expect(auditStatuses(notes)).toEqual([
      ["put_information", undefined],
      ["audit_information", "queued"],
    ]);
    expect(notes[0]?.notification_data.state).toBe("complete");
    expect(expectAuditData(notes[1]).audit_id).toBe(id);
  });
});
