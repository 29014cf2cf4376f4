import { z } from "zod";
import { identifier } from "./identifier.js";
import { PICK_EXCEPTION_REASONS } from "./pick.machine.js";
import { PUT_EXCEPTION_STATES } from "./put.machine.js";

/**
 * Bodies of the station API (docs/architecture.md#station-api): what the operator screen, the devices (through
 * the station engine) and the central system's robot control send. Each is declared once; the
 * TypeScript types below, the OpenAPI document and the MQTT requests derive from these schemas.
 */
const id255 = identifier(255);
const qty = z.number().int().min(1).max(1_000_000);
const seatName = identifier(32);

export const STATION_MODES = ["pick", "put", "audit"] as const;
export type StationMode = (typeof STATION_MODES)[number];

export const stationModeSchema = z.object({ mode: z.enum(STATION_MODES) });

export const loginSchema = z.object({ user: identifier(128) });

/** An item's own id, as actuals give it (Product `uid`, uidType `ITEM_ID`). */
const uid = z.string().regex(/^[1-9]\d{0,14}$/, "an item's uid: its id, digits");

/**
 * How a station call names an item (docs/decisions.md#item-identity): by its `uid`, or by attribute
 * values that hold one whole uniqueness group of it (`pdfa_values`; `product_sku` alone is such a name
 * only for an item identified by it).
 */
const itemNameFields = {
  uid: uid.optional(),
  product_sku: id255.optional(),
  pdfa_values: z
    .record(identifier(255), z.union([z.string().max(255), z.number(), z.boolean()]))
    .refine((v) => Object.keys(v).length <= 64, "at most 64 attributes")
    .optional(),
};

interface ItemNameFields {
  uid?: string | undefined;
  product_sku?: string | undefined;
  pdfa_values?: Record<string, string | number | boolean> | undefined;
}

const NAME_AN_ITEM = "name the item: uid, pdfa_values or product_sku";

/** A station call names its item once: by uid, or by attributes that agree with each other. */
function checkItemName(v: ItemNameFields, ctx: z.RefinementCtx): void {
  if (v.uid === undefined && v.product_sku === undefined && v.pdfa_values === undefined)
    ctx.addIssue({ code: "custom", path: ["product_sku"], message: NAME_AN_ITEM });
  const inValues = v.pdfa_values?.product_sku;
  if (v.product_sku !== undefined && inValues !== undefined && inValues !== v.product_sku)
    ctx.addIssue({
      code: "custom",
      path: ["pdfa_values", "product_sku"],
      message: "differs from product_sku",
    });
}

/**
 * The item a station call names: its uid, or the attribute values it gives (product_sku among them),
 * with the field a refusal names.
 */
export type ItemRef =
  | { uid: number; path: "uid" }
  | { name: Record<string, string | number | boolean>; path: "pdfa_values" | "product_sku" };

export function itemRefOf(v: ItemNameFields): ItemRef {
  if (v.uid !== undefined) return { uid: Number(v.uid), path: "uid" };
  const name: Record<string, string | number | boolean> = { ...(v.pdfa_values ?? {}) };
  if (v.product_sku !== undefined) name.product_sku = v.product_sku;
  return { name, path: v.pdfa_values === undefined ? "product_sku" : "pdfa_values" };
}

export const pickTransactionSchema = z.object({
  externalServiceRequestId: id255,
  line: id255,
  location: id255,
  /** the item picked, where the line holds several at the slot (the station engine always sends it) */
  uid: uid.optional(),
  quantity: qty,
  seat: seatName.optional(),
  /**
   * Values captured for an item that needs them (docs/capture.md#over-the-station-api): checked by the
   * pick against the item, so here only bounded.
   */
  capture: z
    .object({
      serial: z.string().max(64).optional(),
      lot: z.string().max(64).optional(),
      expiry: z.string().max(16).optional(),
    })
    .strict()
    .optional(),
});
export type PickTransactionInput = z.output<typeof pickTransactionSchema>;

/**
 * A pick exception. `location`: the slot it happened at (its actual container carries it); without one,
 * the line's reservation on a presented rack. `missing` (the slot is empty when the operator arrives,
 * docs/decisions.md) needs the slot.
 */
export const pickExceptionSchema = z
  .object({
    externalServiceRequestId: id255,
    line: id255,
    location: id255.optional(),
    /** the item found wrong, where the line holds several (its reservation is written down first) */
    uid: uid.optional(),
    quantity: qty,
    reason: z.enum(PICK_EXCEPTION_REASONS),
    seat: seatName.optional(),
  })
  .refine((e) => e.reason !== "missing" || e.location !== undefined, {
    path: ["location"],
    message: "a missing slot is named by its location",
  });
export type PickExceptionInput = z.output<typeof pickExceptionSchema>;

export const putTransactionSchema = z
  .object({
    externalServiceRequestId: id255,
    ...itemNameFields,
    location: id255,
    quantity: qty,
    seat: seatName.optional(),
  })
  .superRefine(checkItemName);
export type PutTransactionInput = z.output<typeof putTransactionSchema>;

export const putExceptionSchema = z
  .object({
    externalServiceRequestId: id255,
    ...itemNameFields,
    quantity: qty,
    reason: z.enum(PUT_EXCEPTION_STATES),
    seat: seatName.optional(),
  })
  .superRefine(checkItemName);
export type PutExceptionInput = z.output<typeof putExceptionSchema>;

export const putBackStageSchema = z.object({
  ppsBinId: z.union([identifier(64), z.number().int()]).transform(String),
});

/** POST /station/racks, and the MQTT request `rack_presented`: a rack (MSU face) reached the station. */
export const rackPresentedSchema = z.object({
  msu: id255,
  locations: z.array(id255).min(1).max(1000),
});
export type RackPresentedInput = z.output<typeof rackPresentedSchema>;

/** PUT /station/stock: the on-hand quantity of an item at a slot (an inventory adjustment). */
export const stockAdjustSchema = z
  .object({
    location: id255,
    msu: id255,
    ...itemNameFields,
    quantity: z.number().int().min(0).max(10_000_000),
  })
  .superRefine(checkItemName);
export type StockAdjustInput = z.output<typeof stockAdjustSchema>;
