/**
 * What every bin-sensor and every printer profile has, whatever its protocol
 * (docs/hardware.md#firmware-profiles). `sensor.codec` and `printer.language` name the protocol; its driver
 * adds its own fields (drivers/registry.ts).
 */
import { z } from "zod";
import { positiveInt } from "./envelope.schema.js";

export const channelSchema = z.strictObject({
  name: z.string().min(1),
  /** Name of a point in `modbus.points`. */
  point: z.string().min(1),
  /** "bits": 0-based offset from the point's first input; "bits-msb-first": 1-based beam number [SRC 40]. */
  bit: z.int().min(0),
  /** Raw bit value that means "active" (a shaded beam reads 0 [SRC 40]). */
  activeWhen: z.literal([0, 1]),
  debounceMs: z.int().min(0).optional(),
  /**
   * What the channel stands for at the station; absent = bin presence. `pause`: an e-stop or light
   * curtain line that pauses seats while active (docs/station.md#pausing-a-seat).
   */
  role: z.enum(["presence", "confirm", "shortage", "pause"]).optional(),
});

export const sensorShape = {
  channels: z.array(channelSchema).min(1),
};

export const printerShape = {
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
};
