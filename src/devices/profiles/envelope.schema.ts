/**
 * Parts of a firmware profile shared by every kind: hardware.md §4.2 (the JSON Schema outline),
 * written as zod. Objects are strict so a misspelt key is refused instead of silently ignored.
 */
import { z } from "zod";

export const byte = z.int().min(0).max(0xff);
export const port = z.int().min(1).max(65535);
export const positiveInt = z.int().min(1);
/** A byte offset inside a HID report. */
export const offset = z.int().min(0).max(1023);
/** One character (delimiters, result chars). */
export const char = z.string().length(1);

export const hex16 = z
  .string()
  .regex(/^0x[0-9a-f]{4}$/, { error: "expected 0x and 4 lower-case hex digits, e.g. 0x0c2e" });

/** Hex bytes separated by spaces, first byte = report id, e.g. "fe 01". */
export const hexBytes = z
  .string()
  .regex(/^[0-9a-f]{2}( [0-9a-f]{2})*$/, { error: "expected lower-case hex bytes separated by spaces" });

export const matchSchema = z.strictObject({
  usb: z
    .strictObject({
      vendorId: hex16.optional(),
      productId: hex16.nullable().optional(),
      usagePage: z.int().min(0).max(0xffff).optional(),
      usage: z.int().min(0).max(0xffff).optional(),
      interface: z.int().min(0).optional(),
      serialNumber: z.string().nullable().optional(),
    })
    .optional(),
  /** Prefer /dev/serial/by-id/... or by-path: ttyUSB numbers change on replug [SRC 68]. */
  serialPath: z.string().min(1).optional(),
  tcp: z.strictObject({ host: z.string().min(1), port }).optional(),
});

export const hidTransport = z.strictObject({
  type: z.literal("hid"),
  driver: z.enum(["hidraw", "libusb"]),
  exclusive: z.enum(["none", "libusb-detach", "evdev-grab"]),
  initFeatureReports: z.array(hexBytes).optional(),
});

export const serialTransport = z.strictObject({
  type: z.literal("serial"),
  baudRate: positiveInt,
  dataBits: z.literal([7, 8]),
  parity: z.enum(["none", "even", "odd"]),
  stopBits: z.literal([1, 2]),
  rs485: z.strictObject({ twoWireEcho: z.boolean() }).optional(),
});

export const tcpTransport = z.strictObject({ type: z.literal("tcp"), port });

export const transportSchema = z.discriminatedUnion("type", [hidTransport, serialTransport, tcpTransport]);

export const timingSchema = z.strictObject({
  responseTimeoutMs: positiveInt.optional(),
  retries: z.int().min(0).max(5).optional(),
  pollIntervalMs: positiveInt.optional(),
  reconnectBackoffMs: z.array(positiveInt).min(1).optional(),
  /** Silence that ends a partial Modbus frame (fallback only, §3.3). */
  interFrameGapMs: z.number().positive().optional(),
});

/**
 * JSON pointer -> where the value comes from: "SRC n ...", "DERIVED ..." or "ASSUMPTION: ..." (§4.1:
 * provenance is mandatory so unsourced values stay visible).
 */
export const provenanceSchema = z
  .record(
    z.string().regex(/^(\/[^/]+)+$/, { error: "provenance keys are JSON pointers, e.g. /transport/port" }),
    z.string().regex(/^(SRC|DERIVED|ASSUMPTION)\b/, { error: "must start with SRC, DERIVED or ASSUMPTION" }),
  )
  .refine((r) => Object.keys(r).length > 0, { error: "must name the source of at least one value" });

export const envelopeShape = {
  profileId: z.string().regex(/^[a-z0-9][a-z0-9-]+$/, { error: "lower-case letters, digits and dashes" }),
  profileVersion: positiveInt,
  vendor: z.string().min(1),
  model: z.string().min(1),
  description: z.string().optional(),
  firmware: z
    .strictObject({ min: z.string().optional(), max: z.string().optional(), notes: z.string().optional() })
    .optional(),
  match: matchSchema.optional(),
  transport: transportSchema,
  timing: timingSchema.optional(),
  provenance: provenanceSchema,
};
