/**
 * What an Atop ABLEPick controller profile says (`ptl.codec: atop-ccb`): the CCB message type of the
 * port its tags hang on and what the tags can display (docs/hardware.md#firmware-profiles).
 */
import { z } from "zod";
import { concatBytes } from "../../codecs/bytes.js";
import type { LightCommand } from "../../hub.types.js";
import { byte } from "../../profiles/envelope.schema.js";
import { type AddIssue, missingPart, needTransport } from "../../profiles/profile-checks.js";
import type { SpecProfile } from "../driver.js";
import { ATOP_MESSAGE_TYPES, AtopCcbEncoder, type AtopCcbOptions } from "./atop-ccb.codec.js";
import { AtopCcbParser, type AtopCcbParserOptions } from "./atop-ccb.parser.js";

export const atopCcbSchema = z.strictObject({
  /** 0x60 = tags on port 1, 0x61 = AT400 port 2 [SRC 30]. */
  messageType: byte,
  subCommands: z.record(z.string(), byte).optional(),
  /** Characters the tags can show; the display-code table is not sourced [ASSUMPTION §2.2]. */
  displayCharset: z.string().min(1).optional(),
  maxFrameLength: z.int().min(7).max(255).optional(),
});

export const atopCcbSpec = {
  kind: "ptl-controller",
  protocols: ["atop-ccb"],
  parts: { atopCcb: atopCcbSchema },
} as const;

export type AtopCcbProfile = SpecProfile<typeof atopCcbSpec>;

export function atopCcbChecks(p: AtopCcbProfile, add: AddIssue): void {
  if (p.ptl.atopCcb === undefined) add(["ptl", "atopCcb"], "is required for codec atop-ccb");
  needTransport(p, ["tcp", "serial"], "for codec atop-ccb", add);
}

export function atopCcbOptions(p: AtopCcbProfile): { encoder: AtopCcbOptions; parser: AtopCcbParserOptions } {
  const a = p.ptl.atopCcb ?? missingPart(p, "ptl.atopCcb");
  const encoder: AtopCcbOptions = { messageType: a.messageType };
  if (a.displayCharset !== undefined) encoder.displayCharset = a.displayCharset;
  // Events for port-2 devices come with 0x61; accept both so one reader serves the controller.
  const messageTypes = [...new Set([a.messageType, ATOP_MESSAGE_TYPES.port1, ATOP_MESSAGE_TYPES.port2])];
  return { encoder, parser: { messageTypes, maxFrameLength: a.maxFrameLength ?? 0xff } };
}

export function atopCcbCodec(p: AtopCcbProfile): { encoder: AtopCcbEncoder; parser: AtopCcbParser } {
  const options = atopCcbOptions(p);
  return { encoder: new AtopCcbEncoder(options.encoder), parser: new AtopCcbParser(options.parser) };
}

/** The frames (sent as one write) that make tag `node` show `cmd`. */
export function atopFrames(
  profile: AtopCcbProfile,
  encoder: AtopCcbEncoder,
  node: number,
  cmd: LightCommand,
): Uint8Array {
  if (cmd.mode === "off") return concatBytes([encoder.clear(node), encoder.led(node, false)]);
  const colors = profile.ptl.capabilities.colors;
  const colour = cmd.mode === "error" ? "red" : cmd.color;
  const code = colour === undefined ? undefined : colors[colour];
  const frames: Uint8Array[] = typeof code === "number" ? [encoder.colour(node, code)] : [];
  if (cmd.mode === "error") frames.push(encoder.flashLed(node));
  else if (cmd.quantity !== undefined) {
    const max = 10 ** profile.ptl.capabilities.digits - 1;
    const text = String(Math.min(max, Math.max(0, Math.trunc(cmd.quantity))));
    frames.push(encoder.display(node, text, { flash: cmd.blink === true }));
  } else frames.push(cmd.blink ? encoder.flashLed(node) : encoder.led(node, true));
  return concatBytes(frames);
}
