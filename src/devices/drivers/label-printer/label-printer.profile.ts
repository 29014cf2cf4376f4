/**
 * What a label printer profile says (`printer.language`): the CUPS queue of a PDF printer, or the raw
 * port of a ZPL printer (docs/hardware.md#firmware-profiles).
 */
import { z } from "zod";
import { port, positiveInt } from "../../profiles/envelope.schema.js";
import { type AddIssue, needTransport } from "../../profiles/profile-checks.js";
import type { SpecProfile } from "../driver.js";

export const cupsSchema = z.strictObject({
  queue: z.string().min(1),
  options: z.record(z.string(), z.string()).optional(),
});

export const rawSchema = z.strictObject({
  port,
  statusCommand: z.string().min(1).optional(),
  statusTimeoutMs: positiveInt.optional(),
});

export const labelPrinterSpec = {
  kind: "printer",
  protocols: ["pdf-cups", "zpl-raw"],
  parts: { cups: cupsSchema, raw: rawSchema },
} as const;

export type LabelPrinterProfile = SpecProfile<typeof labelPrinterSpec>;

export function labelPrinterChecks(p: LabelPrinterProfile, add: AddIssue): void {
  const pr = p.printer;
  if (pr.language === "pdf-cups" && pr.cups === undefined)
    add(["printer", "cups"], "is required for pdf-cups");
  if (pr.language === "zpl-raw") {
    if (pr.raw === undefined) add(["printer", "raw"], "is required for zpl-raw");
    needTransport(p, ["tcp"], "for zpl-raw", add);
  }
}
