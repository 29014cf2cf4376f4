/**
 * The firmware profile: one JSON file per device model in `firmware-profiles/` (hardware.md §4). A common
 * envelope plus one body chosen by `kind`. Profiles carry parameters only; the codecs own the algorithms.
 */
import { z } from "zod";
import { envelopeShape } from "./envelope.schema.js";
import { profileIssues } from "./profile-checks.js";
import { ptlSchema } from "./ptl.schema.js";
import { scannerSchema } from "./scanner.schema.js";
import { printerSchema, sensorSchema } from "./sensor-printer.schema.js";

const scannerProfile = z.strictObject({
  ...envelopeShape,
  kind: z.literal("scanner"),
  scanner: scannerSchema,
});
const ptlProfile = z.strictObject({ ...envelopeShape, kind: z.literal("ptl-controller"), ptl: ptlSchema });
const sensorProfile = z.strictObject({
  ...envelopeShape,
  kind: z.literal("bin-sensor"),
  sensor: sensorSchema,
});
const printerProfile = z.strictObject({
  ...envelopeShape,
  kind: z.literal("printer"),
  printer: printerSchema,
});

const shapes = z.discriminatedUnion("kind", [scannerProfile, ptlProfile, sensorProfile, printerProfile]);

export type FirmwareProfileShape = z.infer<typeof shapes>;

export const firmwareProfileSchema = shapes.superRefine((profile, ctx) => {
  for (const issue of profileIssues(profile)) {
    ctx.addIssue({ code: "custom", path: issue.path, message: issue.message, input: profile });
  }
});

export type FirmwareProfile = z.infer<typeof firmwareProfileSchema>;
export type ProfileKind = FirmwareProfile["kind"];
export type ScannerProfile = Extract<FirmwareProfile, { kind: "scanner" }>;
export type PtlProfile = Extract<FirmwareProfile, { kind: "ptl-controller" }>;
export type SensorProfile = Extract<FirmwareProfile, { kind: "bin-sensor" }>;
export type PrinterProfile = Extract<FirmwareProfile, { kind: "printer" }>;

/**
 * The same schema as JSON Schema (draft 2020-12), for editors and for integrators who validate profiles
 * outside the agent. Cross-field rules (profile-checks.ts) are not expressible there and stay in code.
 */
export function firmwareProfileJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(firmwareProfileSchema, { target: "draft-2020-12" }) as Record<string, unknown>;
}
