/** Put-to-light controller body (hardware.md §4.2 `ptl`, examples §4.5-4.7). */
import { z } from "zod";
import { modbusMapSchema } from "../drivers/modbus-rtu/modbus-map.schema.js";
import { byte, char, positiveInt } from "./envelope.schema.js";

export const atopCcbSchema = z.strictObject({
  /** 0x60 = tags on port 1, 0x61 = AT400 port 2 [SRC 30]. */
  messageType: byte,
  subCommands: z.record(z.string(), byte).optional(),
  /** Characters the tags can show; the display-code table is not sourced [ASSUMPTION §2.2]. */
  displayCharset: z.string().min(1).optional(),
  maxFrameLength: z.int().min(7).max(255).optional(),
});

export const asciiFixedSchema = z.strictObject({
  frameLength: positiveInt,
  start: char,
  stop: char,
  fields: z.array(z.strictObject({ name: z.string().min(1), width: positiveInt })).min(1),
  commands: z.record(z.string(), char),
  params: z.record(z.string(), char),
  results: z.strictObject({ ok: char, ledOnAwaitingAck: char, busy: char }),
});

export const ptlSchema = z.strictObject({
  codec: z.enum(["atop-ccb", "ascii-fixed", "modbus-rtu", "custom"]),
  addressing: z.strictObject({
    scheme: z.enum(["node", "shelf+compartment", "unit-id"]),
    min: z.int().min(0),
    max: z.int().min(0),
    broadcast: z.union([z.int(), z.string(), z.null()]).optional(),
  }),
  capabilities: z.strictObject({
    digits: z.int().min(0).max(16),
    colors: z.record(z.string(), z.union([z.int(), z.string()])),
    blink: z.array(z.string()).optional(),
    buttons: z.array(z.enum(["confirm", "shortage", "up", "down"])),
    buzzer: z.boolean(),
    persistentConfigWarning: z.string().optional(),
  }),
  events: z.enum(["unsolicited", "polled"]),
  atopCcb: atopCcbSchema.optional(),
  asciiFixed: asciiFixedSchema.optional(),
  modbus: modbusMapSchema.optional(),
});
