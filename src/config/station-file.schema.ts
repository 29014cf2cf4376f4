/**
 * The station file (YAML) as zod, docs/architecture.md#the-station-model: `station` (site, ppsId, seats, bins with their light,
 * sensor and button, the IRT bin) and `devices` (id, kind, profile, seat, transport). Objects are strict
 * so a misspelt key is refused instead of silently ignored. Pure: reading the file and the cross-field
 * rules that need the drivers and firmware profiles are the devices' (devices/station-file/).
 */
import { z } from "zod";
import { DEVICE_KINDS } from "../domain/device-kinds.js";

/** Same alphabet as the config's seat and bin ids (they feed the same tables). */
const id = z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, { error: "letters, digits, '-' or '_' (1-32)" });
/** Module address in the controller's own scheme; YAML may write `5` or `"001005"`. */
const address = z.union([z.string().min(1).max(32), z.int().min(0)]).transform(String);
const usbId = z
  .union([
    z.int().min(0).max(0xffff),
    z.string().regex(/^0x[0-9a-fA-F]{1,4}$/, { error: "a number or 0x and hex digits, e.g. 0x0c2e" }),
  ])
  .transform((v) => (typeof v === "number" ? v : Number.parseInt(v.slice(2), 16)));

const serialTransport = z.strictObject({
  /** Prefer /dev/serial/by-id/...: ttyUSB numbers change on replug [SRC 68]. */
  serial: z.string().min(1),
  baudRate: z.int().positive().optional(),
  dataBits: z.literal([7, 8]).optional(),
  parity: z.enum(["none", "even", "odd"]).optional(),
  stopBits: z.literal([1, 2]).optional(),
});
const tcpTransport = z.strictObject({
  tcp: z.strictObject({ host: z.string().min(1), port: z.int().min(1).max(65535) }),
});
/** Matched at every (re)open by enumeration, never a stored /dev/hidrawN path [SRC 1, 14]. */
const hidTransport = z.strictObject({
  hid: z.strictObject({
    vendorId: usbId,
    productId: usbId.optional(),
    usagePage: usbId.optional(),
    usage: usbId.optional(),
    interface: z.int().min(0).optional(),
    serialNumber: z.string().min(1).optional(),
  }),
});

export type DeviceTransport =
  | { type: "sim" }
  | ({ type: "serial"; path: string } & Omit<z.infer<typeof serialTransport>, "serial">)
  | ({ type: "tcp" } & z.infer<typeof tcpTransport>["tcp"])
  | ({ type: "hid" } & z.infer<typeof hidTransport>["hid"]);

const TRANSPORT_HELP = "expected sim, { serial: PATH }, { tcp: { host, port } } or { hid: { vendorId, … } }";

/** `transport` is told apart by its one key, so a bad port reports the port, not "no union matched". */
const transport = z.unknown().transform((v, ctx): DeviceTransport => {
  if (v === "sim") return { type: "sim" };
  const variants = [
    ["serial", serialTransport],
    ["tcp", tcpTransport],
    ["hid", hidTransport],
  ] as const;
  if (typeof v === "object" && v !== null) {
    for (const [key, schema] of variants) {
      if (!(key in v)) continue;
      const r = schema.safeParse(v);
      if (!r.success) {
        for (const issue of r.error.issues) {
          const extra = issue.code === "unrecognized_keys" ? [issue.keys[0] ?? ""] : [];
          const message = issue.code === "unrecognized_keys" ? "unknown key" : issue.message;
          ctx.addIssue({ code: "custom", message, path: [...issue.path, ...extra] });
        }
        return z.NEVER;
      }
      const d = r.data;
      if ("serial" in d) {
        const { serial, ...rest } = d;
        return { type: "serial", path: serial, ...rest };
      }
      if ("tcp" in d) return { type: "tcp", ...d.tcp };
      return { type: "hid", ...d.hid };
    }
  }
  ctx.addIssue({ code: "custom", message: TRANSPORT_HELP });
  return z.NEVER;
});

const binSchema = z.strictObject({
  id,
  light: z.strictObject({ device: id, address }).optional(),
  /** A presence channel (bin sensor or light curtain beam). */
  sensor: z.strictObject({ device: id, channel: z.string().min(1) }).optional(),
  /** A confirm or shortage input of a DI module, when the light module has no button of its own. */
  button: z.strictObject({ device: id, channel: z.string().min(1) }).optional(),
  /**
   * The seat whose bin it is: its light, button and beam follow that seat into training
   * (docs/station.md#bins-of-a-seat). Absent: shared by every seat (one seat: that seat's).
   */
  seat: id.optional(),
});

const deviceSchema = z.strictObject({
  id,
  kind: z.enum(DEVICE_KINDS),
  /** A file name in the profiles folder without `.json`, or `sim` (built-in, only with transport sim). */
  profile: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]+$/, { error: "a profile id: lower-case letters, digits, '-'" }),
  /** Scanners: the seat whose scans they are. */
  seat: id.optional(),
  /** Modbus devices: the unit id on the bus, when not the profile's. */
  unitId: z.int().min(1).max(247).optional(),
  transport,
});

/**
 * An input that pauses seats while it is active (docs/station.md#pausing-a-seat): an e-stop or light
 * curtain line, a bin-sensor channel of role `pause`. `seats`: the seats it holds (absent: every seat).
 */
const pauseInputSchema = z.strictObject({
  device: id,
  channel: z.string().min(1),
  seats: z.array(id).min(1).max(16).optional(),
  /** what the screen says while it holds a seat */
  reason: z.string().min(1).max(255).optional(),
});

export const stationFileSchema = z.strictObject({
  station: z.strictObject({
    /** When given, must equal the config's `site` / `ppsId`: a file copied to the wrong box is refused. */
    site: id.optional(),
    ppsId: z
      .union([id, z.int().min(0)])
      .transform(String)
      .optional(),
    seats: z.array(id).min(1).max(16),
    bins: z.array(binSchema).min(1).max(256),
    irtBin: binSchema.optional(),
    pauseInputs: z.array(pauseInputSchema).max(64).optional(),
  }),
  devices: z.array(deviceSchema).max(256).default([]),
});

export type StationFile = z.infer<typeof stationFileSchema>;
export type BinDefinition = z.infer<typeof binSchema>;
export type DeviceDefinition = z.infer<typeof deviceSchema>;
export type PauseInputDefinition = z.infer<typeof pauseInputSchema>;
