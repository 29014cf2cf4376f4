import { z } from "zod";
import { identifier } from "./identifier.js";
import { PICK_EXCEPTION_REASONS } from "./pick.machine.js";
import { PUT_EXCEPTION_STATES } from "./put.machine.js";

/**
 * Bodies of the station API (docs/architecture.md, station API): what the operator screen, the devices (through
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

export const pickTransactionSchema = z.object({
  externalServiceRequestId: id255,
  line: id255,
  location: id255,
  quantity: qty,
  seat: seatName.optional(),
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
    quantity: qty,
    reason: z.enum(PICK_EXCEPTION_REASONS),
    seat: seatName.optional(),
  })
  .refine((e) => e.reason !== "missing" || e.location !== undefined, {
    path: ["location"],
    message: "a missing slot is named by its location",
  });
export type PickExceptionInput = z.output<typeof pickExceptionSchema>;

export const putTransactionSchema = z.object({
  externalServiceRequestId: id255,
  product_sku: id255,
  location: id255,
  quantity: qty,
  seat: seatName.optional(),
});
export type PutTransactionInput = z.output<typeof putTransactionSchema>;

export const putExceptionSchema = z.object({
  externalServiceRequestId: id255,
  product_sku: id255,
  quantity: qty,
  reason: z.enum(PUT_EXCEPTION_STATES),
  seat: seatName.optional(),
});
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
export const stockAdjustSchema = z.object({
  location: id255,
  msu: id255,
  product_sku: id255,
  quantity: z.number().int().min(0).max(10_000_000),
});
export type StockAdjustInput = z.output<typeof stockAdjustSchema>;
