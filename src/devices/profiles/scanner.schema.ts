/**
 * What every scanner profile has, whatever its mode (docs/hardware.md#firmware-profiles):
 * how a scan is framed and what the device sends for symbologies and GS. `scanner.mode` names the
 * protocol; the driver of that mode adds its own fields (drivers/registry.ts).
 */
import { z } from "zod";
import { positiveInt } from "./envelope.schema.js";

export const framingSchema = z.strictObject({
  prefix: z.string().optional(),
  suffix: z.string().optional(),
  aimTransmitted: z.boolean().optional(),
  /** What the device emits for FNC1/GS [SRC 27, 28]. */
  groupSeparator: z.string().optional(),
  /** Longest scan accepted in serial mode. */
  maxLength: positiveInt.optional(),
});

export const scannerShape = {
  framing: framingSchema.optional(),
  /** Vendor code id char -> symbology name, e.g. Honeywell byte 61 [SRC 9]. */
  vendorCodeIds: z.record(z.string().length(1), z.string().min(1)).optional(),
};
