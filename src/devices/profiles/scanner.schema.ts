/** Scanner body of a firmware profile (hardware.md §4.2 `scanner`, examples §4.3-4.4). */
import { z } from "zod";
import { byte, offset, positiveInt } from "./envelope.schema.js";

export const hidPosSchema = z.strictObject({
  reportId: byte,
  /** false when the report id is not byte 0 of the buffer (WebHID) [SRC 9]; absent = true (hidapi). */
  reportIdInBuffer: z.boolean().optional(),
  reportLength: z.int().min(2).max(1024),
  lengthOffset: offset,
  aimOffset: offset.nullable(),
  /** Accept `]` one byte after aimOffset [SRC 9]; absent = false. */
  aimProbe: z.boolean().optional(),
  dataOffset: offset,
  maxDataPerReport: positiveInt,
  vendorCodeIdOffset: offset.nullable(),
  /** null: every report is a whole message (Newland FM430) [SRC 24]. */
  continuedOffset: offset.nullable(),
  continuedMask: z.int().min(1).max(0xff),
  maxMessageBytes: positiveInt.optional(),
  triggerReport: z
    .strictObject({ reportId: byte, bits: z.record(z.string(), z.int().min(0).max(7)) })
    .optional(),
});

export const keyboardSchema = z.strictObject({
  reportId: byte.nullable(),
  layout: z.literal("us"),
  altNumpad: z.boolean(),
  /** Required with altNumpad: the code page of Alt codes above 127 is not sourced [ASSUMPTION §3.1]. */
  altNumpadAbove127: z.enum(["latin1", "reject"]).optional(),
  ctrlMap: z
    .record(
      z
        .string()
        .regex(/^ctrl\+0x[0-9a-f]{2}$/, { error: 'keys are "ctrl+0x" and a usage id, e.g. ctrl+0x30' }),
      z.string().min(1),
    )
    .optional(),
  idleTerminatorMs: positiveInt.nullable().optional(),
});

export const framingSchema = z.strictObject({
  prefix: z.string().optional(),
  suffix: z.string().optional(),
  aimTransmitted: z.boolean().optional(),
  /** What the device emits for FNC1/GS [SRC 27, 28]. */
  groupSeparator: z.string().optional(),
  /** Longest scan accepted in serial mode. */
  maxLength: positiveInt.optional(),
});

export const scannerSchema = z.strictObject({
  mode: z.enum(["hid-pos", "hid-keyboard", "serial"]),
  hidPos: hidPosSchema.optional(),
  keyboard: keyboardSchema.optional(),
  framing: framingSchema.optional(),
  /** Vendor code id char -> symbology name, e.g. Honeywell byte 61 [SRC 9]. */
  vendorCodeIds: z.record(z.string().length(1), z.string().min(1)).optional(),
});
