/**
 * How the OpenAPI document describes the engine's answer to one input. `Outcome` in station/engine.ts
 * is its one definition; this is only its description for the HTTP routes that answer with it (the scan,
 * key-in and simulator routes, the screen's actions). A type test
 * (test/unit/station/routes/outcome.schema.test.ts) fails `tsc` once the two part.
 */
import { z } from "zod";

export const outcomeSchema = z.object({
  seat: z
    .string()
    .nullable()
    .describe("the seat the input went to; null for a bin's button or beam no seat's work lit"),
  result: z.enum(["done", "refused", "debounced", "ignored"]),
  as: z.string().optional().describe("what the barcode was read as"),
  did: z.string().optional().describe("what the seat did"),
  code: z.string().optional().describe("the exception code an `EXC-` scan named"),
  reason: z
    .string()
    .optional()
    .describe("why it was refused: a seat-machine reason, or the refusing operation's error code"),
  message: z.string().optional(),
  step: z
    .enum(["ready", "pick_confirm", "put_slot", "put_confirm", "audit_count"])
    .optional()
    .describe("the seat's step afterwards"),
  calls: z.array(z.string()).optional().describe("the operations that were called, in order"),
  params: z
    .record(z.string(), z.string())
    .optional()
    .describe("what the words for `did` name (bin full: `bin` closed, `order`, its `next` bin)"),
});
