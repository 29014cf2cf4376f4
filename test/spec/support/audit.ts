import { expect } from "vitest";
import type { Envelope, Json } from "../../support/station.js";
import { ok } from "../../support/station.js";
import type { Central } from "./central.js";
import { AUDIT } from "./endpoints.js";

/** The conformance suite's audit steps, on the spec's audit paths ("Endpoints" → "Audits"). */
export { AUDIT };

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;
const QTY = ["good_qty", "missing_qty", "damaged_qty", "unscannable_qty", "system_removed_qty"];

export const auditStatuses = (notes: Envelope[]) =>
  notes.map((n) => [n.notification_type, n.notification_data.audit_status as string]);

/** A location audit of `locations`, created over HTTP; its audit_id. */
export async function createAudit(c: Central, locations: string[], extra: Json = {}): Promise<string> {
  const body = {
    action: "create",
    audit_param_name: "cycle count",
    audit_param_type: "location",
    audit_param_value: { locations_list: locations },
    kq: true,
    ...extra,
  };
  return (await ok(c.t.call("POST", AUDIT, body))).audit_id as string;
}

/** A dashboard or station action on an audit (docs/station.md#station-api: /station/audits/{id}/{action}). */
export const auditAct = (c: Central, id: string, action: string, body?: unknown) =>
  c.t.call("POST", `/station/audits/${id}/${action}`, body);

/** "Audit line" fields of the spec, each of its type. */
export function expectAuditLine(line: Json): void {
  expect(Object.keys(line).sort()).toEqual(
    [
      "actual_qty",
      "audit_line_id",
      "expected_qty",
      "extra_qty",
      "item_id",
      "location",
      "pdfa_values",
      "quantity_details",
      "status",
    ].sort(),
  );
  expect(line).toMatchObject({
    audit_line_id: expect.any(String),
    item_id: expect.any(String),
    status: expect.stringMatching(/^auditline_/),
    pdfa_values: expect.any(Object),
    location: expect.any(String),
  });
  for (const k of ["expected_qty", "actual_qty", "extra_qty"]) expect(Number.isInteger(line[k])).toBe(true);
  expect(Object.keys(line.quantity_details).sort()).toEqual([...QTY].sort());
  for (const k of QTY) expect(Number.isInteger(line.quantity_details[k])).toBe(true);
}

/**
 * "Audit notification data" of the spec, each field of its type: audit_data empty for created and
 * deleted, absent in aborted; timestamp absent in deleted; pps_id an integer or null.
 */
export function expectAuditData(note: Envelope | undefined): Json {
  expect(note?.notification_type).toBe("audit_information");
  const d = note?.notification_data as Json;
  const status = d.audit_status as string;
  expect(d).toMatchObject({
    audit_id: expect.any(String),
    audit_param_name: expect.any(String),
    audit_param_type: expect.stringMatching(/^(location|sku)$/),
    creation_time: expect.stringMatching(ISO),
  });
  expect(d.pps_id === null || Number.isInteger(d.pps_id)).toBe(true);
  for (const k of ["pps_seat_name", "user_name"])
    expect(d[k] === null || typeof d[k] === "string").toBe(true);
  expect(d.complete_time === null || ISO.test(d.complete_time)).toBe(true);
  if (status === "deleted") expect(d).not.toHaveProperty("timestamp");
  else expect(d.timestamp).toMatch(ISO);
  if (status === "aborted") expect(d).not.toHaveProperty("audit_data");
  else if (status === "created" || status === "deleted") expect(d.audit_data).toEqual([]);
  else for (const line of d.audit_data as Json[]) expectAuditLine(line);
  return d;
}
