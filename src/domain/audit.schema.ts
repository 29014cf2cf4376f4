import { z } from "zod";
import { AUDIT_STATUSES } from "./audit.machine.js";
import { AUDIT_LINE_STATUSES } from "./audit-line.machine.js";
import { identifier } from "./identifier.js";

/**
 * Bodies of the audit endpoints (docs/interface.md "Audit object", "Endpoints" → "Audits"; docs/architecture.md#station-api).
 * Lists are bounded (docs/architecture.md#durability-and-limits): an audit names at most 1,000 locations or SKUs.
 */
/**
 * Audit parameters are identifiers: slot, MSU and SKU ids, the parameter's name, line ids. Kept as sent,
 * spaces included, as every id of the interface: a slot presented as ` S1 ` is another slot than `S1`,
 * and central reads back what it sent. Only a text of nothing but spaces is refused: it names nothing
 * anyone can see (docs/decisions.md#audits).
 */
const text255 = identifier(255).refine((s) => s.trim() !== "", "must not be blank");

/** Spec: for `location`, `locations_list`, a list of strings (slot ids or MSU ids). */
export const locationParamSchema = z
  .object({
    locations_list: z.array(text255).min(1, "at least one slot or MSU id").max(1000),
  })
  .strict();

/** One object of `attributes_sets`: an attribute name mapped to the values it may take. */
const attributeSetSchema = z
  .record(z.string().min(1).max(255), z.array(z.string().max(255)).min(1, "at least one value").max(1000))
  .refine((set) => Object.keys(set).length > 0, "an attribute set names at least one attribute");

/**
 * Spec: for `sku`, `attributes_list`, objects each with `sku` and `attributes_sets`. An absent or empty
 * `attributes_sets` audits every product with that SKU (docs/decisions.md).
 */
export const skuParamSchema = z
  .object({
    attributes_list: z
      .array(
        z
          .object({
            sku: text255,
            attributes_sets: z.array(attributeSetSchema).max(100).default([]),
          })
          .strict(),
      )
      .min(1, "at least one sku")
      .max(1000),
  })
  .strict();

const createBase = {
  action: z.literal("create"),
  audit_creator_name: z.string().max(255).nullish(),
  audit_param_name: text255,
  kq: z.boolean(),
};

/** Spec "Create audit". The parameter's shape follows `audit_param_type`. */
export const auditCreateSchema = z.discriminatedUnion("audit_param_type", [
  z.object({
    ...createBase,
    audit_param_type: z.literal("location"),
    audit_param_value: locationParamSchema,
  }),
  z.object({ ...createBase, audit_param_type: z.literal("sku"), audit_param_value: skuParamSchema }),
]);
export type AuditCreateInput = z.output<typeof auditCreateSchema>;
export type AuditParamValue = AuditCreateInput["audit_param_value"];
export type SkuParam = z.output<typeof skuParamSchema>["attributes_list"][number];

export const auditCreatedSchema = z.object({ action: z.literal("create"), audit_id: z.string() });
export const auditDeletedSchema = z.object({ action: z.literal("delete"), audit_id: z.string() });

const qty = z.number().int("must be an integer").min(0, "must not be negative").max(1_000_000);

/** docs/architecture.md#interfaces: `POST /station/audits/{audit_id}/count`. */
export const auditCountSchema = z
  .object({
    audit_line_id: text255,
    good_qty: qty,
    damaged_qty: qty.default(0),
    unscannable_qty: qty.default(0),
  })
  .strict();
export type AuditCountInput = z.output<typeof auditCountSchema>;

/**
 * An audit named by its id: the path parameter of delete over HTTP, the payload of the MQTT request
 * `delete_audit` (path parameters travel in the payload under the same name).
 */
export const auditIdSchema = z.object({ audit_id: identifier(255) });

/** `POST /station/audits/{audit_id}/begin`: the seat counting; the first logged-in seat when absent. */
export const auditBeginSchema = z.object({ seat: text255.optional() }).strict();

const quantityDetailsSchema = z.object({
  good_qty: z.number().int(),
  missing_qty: z.number().int(),
  damaged_qty: z.number().int(),
  unscannable_qty: z.number().int(),
  system_removed_qty: z.number().int(),
});

export const auditLineViewSchema = z.object({
  audit_line_id: z.string(),
  item_id: z.string(),
  status: z.enum(AUDIT_LINE_STATUSES),
  pdfa_values: z.record(z.string(), z.unknown()),
  location: z.string(),
  expected_qty: z.number().int(),
  actual_qty: z.number().int(),
  extra_qty: z.number().int(),
  quantity_details: quantityDetailsSchema,
});

/** The station's view of an audit: the notification data, plus what the dashboard needs to act. */
export const auditViewSchema = z.object({
  audit_id: z.string(),
  audit_param_name: z.string(),
  audit_param_type: z.enum(["location", "sku"]),
  audit_status: z.enum(AUDIT_STATUSES),
  audit_data: z.array(auditLineViewSchema),
  pps_id: z.number().int().nullable(),
  pps_seat_name: z.string().nullable(),
  user_name: z.string().nullable(),
  creation_time: z.string(),
  complete_time: z.string().nullable(),
  audit_param_value: z.record(z.string(), z.unknown()),
  kq: z.boolean(),
  audit_creator_name: z.string().nullable(),
  paused_from: z.enum(AUDIT_STATUSES).nullable(),
});
