/**
 * Helpers for audit tests. Everything goes through HTTP (station stock, mode and seat endpoints, the
 * spec's service requests) except what the station API cannot express yet, which is said where used.
 */
import { expect } from "vitest";
import type { TestAgent } from "./agent.js";
import { itemBody } from "./fixtures.js";

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

/** Stock set over the station API (`PUT /station/stock` names the item by its product_sku). */
/** Stock of an item named by its SKU (where that is a whole uniqueness group) or by its pdfa_values. */
export async function seedStock(
  t: TestAgent,
  location: string,
  msu: string,
  item: string | Record<string, unknown>,
  qty: number,
) {
  const name = typeof item === "string" ? { product_sku: item } : { pdfa_values: item };
  const res = await t.call("PUT", "/station/stock", { location, msu, ...name, quantity: qty });
  expect(res.status, await res.text()).toBe(200);
}

/** For a product whose SKU is shared by several items, which the station stock endpoint refuses. */
export function seedStockOfItem(
  t: TestAgent,
  location: string,
  msu: string,
  itemId: number,
  qty: number,
): void {
  const { stock } = t.agent.services.repos;
  stock.upsertLocation(location, msu);
  stock.add(location, itemId, qty);
}

export function stockAt(t: TestAgent, location: string, itemId: number): number | undefined {
  return t.agent.services.repos.stock.stockAt(location, itemId)?.quantity;
}

export async function setMode(t: TestAgent, mode: "pick" | "put" | "audit"): Promise<void> {
  const res = await t.call("PUT", "/station/mode", { mode });
  expect(res.status, await res.text()).toBe(200);
}

export async function login(t: TestAgent, seat: string, user: string): Promise<void> {
  const res = await t.call("POST", `/station/seats/${seat}/login`, { user });
  expect(res.status, await res.text()).toBe(200);
}

/** Station in audit mode with an operator at the front seat (docs/architecture.md#flows: begin needs both). */
export async function stationReady(t: TestAgent, user = "op-1"): Promise<void> {
  await setMode(t, "audit");
  await login(t, "front", user);
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

/**
 * The audit_information payloads emitted after `seq`, checking the envelope of each. Any other
 * notification fails the test, unless `skipOthers` (flows where picks or puts notify too).
 */
export async function auditNotes(t: TestAgent, seq: number, skipOthers = false): Promise<AuditData[]> {
  const notes = (await notesAfter(t, seq)).filter(
    (n) => !skipOthers || n.notification.notification_type === "audit_information",
  );
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
