/**
 * The kinds of device a firmware profile describes and how each kind's body is laid out: the key of
 * the body, the field of the body that names the protocol (and so the driver that reads the profile),
 * and the fields every device of the kind has whatever its protocol. Drivers add the fields of their
 * protocol (drivers/driver.ts `ProfileSpec`); firmware-profile.schema.ts puts both together.
 */
import type { z } from "zod";
import type { DeviceKind } from "../../domain/device-kinds.js";
import type { envelopeShape } from "./envelope.schema.js";
import { ptlShape } from "./ptl.schema.js";
import { scannerShape } from "./scanner.schema.js";
import { printerShape, sensorShape } from "./sensor-printer.schema.js";

interface KindLayout {
  body: string;
  variant: string;
  shape: z.ZodRawShape;
  /**
   * Protocols a profile may name although no driver speaks them yet: a controller whose protocol is
   * under NDA can still be described and run simulated (docs/hardware.md#assumptions-and-open-points:
   * vendors with no public protocol); the station file refuses it on real hardware.
   */
  withoutDriver: readonly string[];
}

export const PROFILE_KINDS = {
  scanner: { body: "scanner", variant: "mode", shape: scannerShape, withoutDriver: [] },
  "ptl-controller": { body: "ptl", variant: "codec", shape: ptlShape, withoutDriver: ["custom"] },
  "bin-sensor": {
    body: "sensor",
    variant: "codec",
    shape: sensorShape,
    withoutDriver: ["ascii-fixed", "custom"],
  },
  printer: { body: "printer", variant: "language", shape: printerShape, withoutDriver: [] },
} as const satisfies Record<DeviceKind, KindLayout>;

type Kinds = typeof PROFILE_KINDS;

/** The envelope every profile shares (envelope.schema.ts). */
export type ProfileEnvelope = z.output<z.ZodObject<typeof envelopeShape>>;

/** The fields of a kind's body that every device of the kind has, the protocol as plain text. */
export type KindBody<K extends DeviceKind> = z.output<z.ZodObject<Kinds[K]["shape"]>> &
  Record<Kinds[K]["variant"], string>;

/** A profile of kind `K` whose body also has `Parts`, the fields its driver adds. */
export type KindProfile<K extends DeviceKind, Parts = unknown> = ProfileEnvelope & { kind: K } & Record<
    Kinds[K]["body"],
    KindBody<K> & Parts
  >;

/** A profile of any kind, seen without the fields of its protocol. */
export type AnyKindProfile = { [K in DeviceKind]: KindProfile<K> }[DeviceKind];

/** The protocol a profile names: `scanner.mode`, `ptl.codec`, `sensor.codec` or `printer.language`. */
export function protocolOf(profile: AnyKindProfile): string {
  const layout = PROFILE_KINDS[profile.kind];
  const body = (profile as unknown as Record<string, Record<string, unknown>>)[layout.body];
  return String(body?.[layout.variant]);
}
