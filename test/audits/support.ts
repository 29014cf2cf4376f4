/**
 * Helpers for audit tests. Stock, station mode and seat logins are seeded through the repositories
 * until the station stock, mode and seat endpoints exist; pick and put holds are written as the pick
 * and put services would leave them (rows in reservations, actuals of a staged put).
 */
import { expect } from "vitest";
import type { TestAgent } from "../helpers/agent.js";
import { itemBody } from "../helpers/fixtures.js";

export const AUDIT = "/api-gateway/integration-service/wms-integration/core/api/audit";
export const ITEM = "/api-gateway/mdm-service/wms-masterdata/item";

export type Json = Record<string, unknown>;
export type Line = Json & { audit_line_id: string; status: string; location: string; item_id: string };
export type AuditData = Json & { audit_status: string; audit_data?: Line[] };

export interface Note {
  seq: number;
  notification: {
    notification_type: string;
    version_number: string;
    notification_id: string;
    notification_data: Json;
  };
}

export async function seedItem(t: TestAgent, sku: string, over: Json = {}): Promise<number> {
  const res = await t.call("POST", ITEM, itemBody(sku, over));
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: number }).id;
}

export function seedStock(t: TestAgent, location: string, msu: string, itemId: number, qty: number): void {
  const { stock } = t.agent.services.repos;
  stock.upsertLocation(location, msu);
  stock.add(location, itemId, qty);
}

export function stockAt(t: TestAgent, location: string, itemId: number): number | undefined {
  return t.agent.services.repos.stock.stockAt(location, itemId)?.quantity;
}

/** Station in audit mode with an operator at the front seat (DESIGN §4: begin needs both). */
export function stationReady(t: TestAgent, user = "op-1"): void {
  const { station } = t.agent.services.repos;
  station.setMode("audit", t.clock.now);
  station.login("front", user, t.clock.now);
}

export async function lastSeq(t: TestAgent): Promise<number> {
  const res = await t.call("GET", "/station/notifications?after=0&limit=1");
  return ((await res.json()) as { lastSeq: number }).lastSeq;
}

export async function notesAfter(t: TestAgent, seq: number): Promise<Note[]> {
  const res = await t.call("GET", `/station/notifications?after=${seq}&limit=1000`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { notifications: Note[] }).notifications;
}

/** The audit_information payloads emitted after `seq`, checking the envelope of each. */
export async function auditNotes(t: TestAgent, seq: number): Promise<AuditData[]> {
  const notes = await notesAfter(t, seq);
  for (const n of notes) {
    expect(n.notification.notification_type).toBe("audit_information");
    expect(n.notification.version_number).toBe("1.5.0");
  }
  return notes.map((n) => n.notification.notification_data as AuditData);
}

export async function createAudit(t: TestAgent, over: Json = {}): Promise<string> {
  const res = await t.call("POST", AUDIT, {
    action: "create",
    audit_creator_name: "manager",
    audit_param_name: "cycle count",
    audit_param_type: "location",
    audit_param_value: { locations_list: ["MSU-1"] },
    kq: true,
    ...over,
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { action: string; audit_id: string };
  expect(body.action).toBe("create");
  return body.audit_id;
}

export async function act(t: TestAgent, auditId: string, action: string, body?: unknown): Promise<Response> {
  return t.call("POST", `/station/audits/${auditId}/${action}`, body);
}

export async function ok(t: TestAgent, auditId: string, action: string, body?: unknown): Promise<AuditData> {
  const res = await act(t, auditId, action, body);
  const json = (await res.json()) as AuditData;
  expect(res.status, JSON.stringify(json)).toBe(200);
  return json;
}

export async function view(t: TestAgent, auditId: string): Promise<AuditData & { audit_data: Line[] }> {
  const res = await t.call("GET", `/station/audits/${auditId}`);
  expect(res.status).toBe(200);
  return (await res.json()) as AuditData & { audit_data: Line[] };
}

/** A pick holding stock at a location: a request, one line, one reservation (DESIGN §4). */
export function holdByPick(t: TestAgent, external: string, location: string, itemId: number): () => void {
  const db = t.agent.db.sqlite;
  const now = t.clock.now;
  const req = db
    .prepare(
      `INSERT INTO service_requests (external_id, type, state, status, request_json, attributes_json, received_on, created_on, updated_on)
       VALUES (?, 'PICK', 'fulfillable', 'PROCESSING', '{}', '{}', ?, ?, ?)`,
    )
    .run(external, now, now, now).lastInsertRowid;
  const line = db
    .prepare(
      `INSERT INTO pick_lines (request_id, external_id, position, state, expected, filters_json, attributes_json,
                               expectation_ids_json, created_on, updated_on)
       VALUES (?, ?, 0, 'fulfillable', 1, '[]', '{}', '{}', ?, ?)`,
    )
    .run(req, `${external}-1`, now, now).lastInsertRowid;
  db.prepare("INSERT INTO reservations (line_id, location, item_id, quantity) VALUES (?, ?, ?, 1)").run(
    line,
    location,
    itemId,
  );
  return () => {
    db.prepare("DELETE FROM reservations WHERE line_id = ?").run(line);
    t.agent.services.bus.emit("request", { type: "PICK", externalServiceRequestId: external });
  };
}

/** A staged put that has put stock at a location (its actuals). The returned function completes it. */
export function holdByPut(t: TestAgent, external: string, location: string, itemId: number): () => void {
  const db = t.agent.db.sqlite;
  const now = t.clock.now;
  const req = db
    .prepare(
      `INSERT INTO service_requests (external_id, type, state, status, request_json, attributes_json, received_on, created_on, updated_on)
       VALUES (?, 'PUT', 'staged', 'CREATED', '{}', '{}', ?, ?, ?)`,
    )
    .run(external, now, now, now).lastInsertRowid;
  db.prepare(
    `INSERT INTO actuals (request_id, state, location, item_id, quantity, product_json, context_json, created_on)
     VALUES (?, 'complete', ?, ?, 1, '{}', '{}', ?)`,
  ).run(req, location, itemId, now);
  return () => {
    db.prepare("UPDATE service_requests SET state = 'complete', status = 'PROCESSED' WHERE id = ?").run(req);
    t.agent.services.bus.emit("request", { type: "PUT", externalServiceRequestId: external });
  };
}
