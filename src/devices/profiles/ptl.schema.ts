/**
 * What every put-to-light controller profile has, whatever its protocol (docs/hardware.md#firmware-profiles):
 * how its modules are addressed, what they can show, and whether it speaks unasked. `ptl.codec` names the
 * protocol; the driver of that protocol adds its own fields (drivers/registry.ts).
 */
import { z } from "zod";
import { addressingSchema } from "./light-address.js";

export const ptlShape = {
  addressing: addressingSchema,
  capabilities: z.strictObject({
    digits: z.int().min(0).max(16),
    colors: z.record(z.string(), z.union([z.int(), z.string()])),
    blink: z.array(z.string()).optional(),
    buttons: z.array(z.enum(["confirm", "shortage", "up", "down"])),
    buzzer: z.boolean(),
    persistentConfigWarning: z.string().optional(),
  }),
  events: z.enum(["unsolicited", "polled"]),
};
