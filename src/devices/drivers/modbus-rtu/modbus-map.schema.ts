/** Modbus register map of a PTL display or sensor profile (hardware.md §4.2 `modbusMap`). */
import { z } from "zod";

export const pointSchema = z.strictObject({
  fc: z.literal([1, 2, 3, 4, 5, 6, 15, 16]),
  /** PDU address (0-based) when the map's addressBase is 0 [SRC 42]. */
  address: z.int().min(0).max(0xffff),
  count: z.int().min(1).max(2000).optional(),
  type: z.enum(["u16", "i16", "u32be", "f32be", "bits", "bits-msb-first", "ascii", "segments"]).optional(),
  scale: z.number().optional(),
  description: z.string().optional(),
});

export const modbusMapSchema = z.strictObject({
  unitId: z.int().min(1).max(247),
  /** How the vendor manual numbers registers: 0 = PDU addresses, 1 = "40001"-style [SRC 42, 45]. */
  addressBase: z.literal([0, 1]),
  points: z.record(z.string().min(1), pointSchema),
});
