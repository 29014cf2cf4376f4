/** Bin-sensor and printer bodies (hardware.md §4.2 `sensor` and `printer`, examples §4.8-4.9). */
import { z } from "zod";
import { modbusMapSchema } from "../drivers/modbus-rtu/modbus-map.schema.js";
import { port, positiveInt } from "./envelope.schema.js";

export const channelSchema = z.strictObject({
  name: z.string().min(1),
  /** Name of a point in `modbus.points`. */
  point: z.string().min(1),
  /** "bits": 0-based offset from the point's first input; "bits-msb-first": 1-based beam number [SRC 40]. */
  bit: z.int().min(0),
  /** Raw bit value that means "active" (a shaded beam reads 0 [SRC 40]). */
  activeWhen: z.literal([0, 1]),
  debounceMs: z.int().min(0).optional(),
  /** What the channel stands for at the station; absent = bin presence. */
  role: z.enum(["presence", "confirm", "shortage"]).optional(),
});

export const sensorSchema = z.strictObject({
  codec: z.enum(["modbus-rtu", "ascii-fixed", "custom"]),
  modbus: modbusMapSchema.optional(),
  channels: z.array(channelSchema).min(1),
});

export const printerSchema = z.strictObject({
  language: z.enum(["pdf-cups", "zpl-raw"]),
  cups: z
    .strictObject({ queue: z.string().min(1), options: z.record(z.string(), z.string()).optional() })
    .optional(),
  raw: z
    .strictObject({
      port,
      statusCommand: z.string().min(1).optional(),
      statusTimeoutMs: positiveInt.optional(),
    })
    .optional(),
  media: z.strictObject({
    widthMm: z.number().positive(),
    heightMm: z.number().positive(),
    dpi: z.literal([203, 300, 600]).optional(),
    pwgName: z.string().optional(),
  }),
  barcode: z
    .strictObject({
      moduleDots: positiveInt.optional(),
      renderer: z.enum(["bwip-png", "bwip-svg", "printer-native"]).optional(),
    })
    .optional(),
});
