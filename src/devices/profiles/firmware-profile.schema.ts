/**
 * The firmware profile: one JSON file per device model in `firmware-profiles/`
 * (docs/hardware.md#firmware-profiles). A common envelope plus one body chosen by `kind`; the body holds the
 * kind's own fields (profile-kinds.ts), the protocol it speaks, and the fields of that protocol's driver
 * (drivers/registry.ts). Profiles carry parameters only; the codecs own the algorithms.
 */
import { z } from "zod";
import type { DeviceKind } from "../../domain/device-kinds.js";
import type { PartsOf, ProfileSpec } from "../drivers/driver.js";
import { type DRIVERS, driverOfProfile, drivers } from "../drivers/registry.js";
import { envelopeShape } from "./envelope.schema.js";
import { kindIssues } from "./profile-checks.js";
import { type KindProfile, PROFILE_KINDS } from "./profile-kinds.js";

type Specs = NonNullable<(typeof DRIVERS)[number]["profile"]>;
type PartsOfSpec<T> = T extends ProfileSpec<DeviceKind, infer S> ? PartsOf<S> : never;
type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
/** The fields every registered driver of kind `K` adds, all of them (each optional). */
type KindParts<K extends DeviceKind> = Intersection<PartsOfSpec<Extract<Specs, { kind: K }>>>;

export type FirmwareProfile = { [K in DeviceKind]: KindProfile<K, KindParts<K>> }[DeviceKind];
export type ScannerProfile = Extract<FirmwareProfile, { kind: "scanner" }>;
export type PtlProfile = Extract<FirmwareProfile, { kind: "ptl-controller" }>;
export type SensorProfile = Extract<FirmwareProfile, { kind: "bin-sensor" }>;
export type PrinterProfile = Extract<FirmwareProfile, { kind: "printer" }>;

/** One kind's profile: envelope, kind, and a body of the kind's fields, protocol and drivers' fields. */
function kindSchema(kind: DeviceKind) {
  const layout = PROFILE_KINDS[kind];
  const specs = drivers.flatMap((d) => (d.profile?.kind === kind ? [d.profile] : []));
  const protocols = [...new Set([...specs.flatMap((s) => s.protocols), ...layout.withoutDriver])];
  const parts = Object.fromEntries(
    specs.flatMap((s) => Object.entries(s.parts).map(([key, schema]) => [key, z.optional(schema)])),
  );
  const body = z.strictObject({ [layout.variant]: z.enum(protocols), ...layout.shape, ...parts });
  return z.strictObject({ ...envelopeShape, kind: z.literal(kind), [layout.body]: body });
}

const shapes = z.discriminatedUnion("kind", [
  kindSchema("scanner"),
  kindSchema("ptl-controller"),
  kindSchema("bin-sensor"),
  kindSchema("printer"),
]);

/** The profile as zod: shapes first, then the cross-field rules of the kind and of the protocol's driver. */
export const firmwareProfileSchema: z.ZodType<FirmwareProfile, unknown> = shapes.superRefine(
  (parsed, ctx) => {
    const profile = parsed as unknown as FirmwareProfile;
    const add = (path: Array<string | number>, message: string) =>
      ctx.addIssue({ code: "custom", path, message, input: profile });
    kindIssues(profile, add);
    driverOfProfile(profile)?.checks(profile, add);
  },
) as unknown as z.ZodType<FirmwareProfile, unknown>;

export type ProfileKind = FirmwareProfile["kind"];

/**
 * The same schema as JSON Schema (draft 2020-12), for editors and for integrators who validate profiles
 * outside the agent. Cross-field rules (the checks) are not expressible there and stay in code.
 */
export function firmwareProfileJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(firmwareProfileSchema, { target: "draft-2020-12" }) as Record<string, unknown>;
}
