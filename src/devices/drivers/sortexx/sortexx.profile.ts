/**
 * What a SorTexx-style controller profile says (`ptl.codec: ascii-fixed`): the fixed ASCII frame and the
 * command, parameter and result characters of the unit (docs/hardware.md#firmware-profiles). Only the SorTexx
 * 11-byte layout is implemented [SRC 33] (docs/hardware.md#sortexx-ascii).
 */
import { z } from "zod";
import type { LightCommand } from "../../hub.types.js";
import { char, positiveInt } from "../../profiles/envelope.schema.js";
import { type AddIssue, missingPart, needTransport } from "../../profiles/profile-checks.js";
import type { SpecProfile } from "../driver.js";
import { SORTEXX_DELIMITERS, SortexxParser } from "./sortexx.codec.js";
import { SortexxAckTracker, type SortexxResultChars } from "./sortexx-ack.js";

export const asciiFixedSchema = z.strictObject({
  frameLength: positiveInt,
  start: char,
  stop: char,
  fields: z.array(z.strictObject({ name: z.string().min(1), width: positiveInt })).min(1),
  commands: z.record(z.string(), char),
  params: z.record(z.string(), char),
  results: z.strictObject({ ok: char, ledOnAwaitingAck: char, busy: char }),
});

export const sortexxSpec = {
  kind: "ptl-controller",
  protocols: ["ascii-fixed"],
  parts: { asciiFixed: asciiFixedSchema },
} as const;

export type SortexxProfile = SpecProfile<typeof sortexxSpec>;

/** The only ascii-fixed layout the codec implements: SorTexx 11-byte frames [SRC 33]. */
const SORTEXX_FIELDS = [
  ["shelf", 3],
  ["compartment", 3],
  ["command", 1],
  ["param", 1],
  ["result", 1],
] as const;

export function sortexxChecks(p: SortexxProfile, add: AddIssue): void {
  needTransport(p, ["serial"], "for codec ascii-fixed", add);
  if (p.ptl.addressing.scheme !== "shelf+compartment")
    add(["ptl", "addressing", "scheme"], "must be shelf+compartment for codec ascii-fixed");
  const a = p.ptl.asciiFixed;
  if (a === undefined) {
    add(["ptl", "asciiFixed"], "is required for codec ascii-fixed");
    return;
  }
  if (SORTEXX_DELIMITERS[a.start] !== a.stop) add(["ptl", "asciiFixed", "stop"], "does not pair with start");
  const same =
    a.frameLength === 11 &&
    a.fields.length === SORTEXX_FIELDS.length &&
    a.fields.every((f, i) => f.name === SORTEXX_FIELDS[i]?.[0] && f.width === SORTEXX_FIELDS[i]?.[1]);
  if (!same) add(["ptl", "asciiFixed", "fields"], "only the SorTexx 11-byte layout is implemented");
}

export function sortexxResults(p: SortexxProfile): SortexxResultChars {
  return (p.ptl.asciiFixed ?? missingPart(p, "ptl.asciiFixed")).results;
}

export function sortexxCodec(p: SortexxProfile): { parser: SortexxParser; acks: SortexxAckTracker } {
  return { parser: new SortexxParser(), acks: new SortexxAckTracker(sortexxResults(p)) };
}

/** Command and parameter chars for a light command, from the profile's tables. */
export function sortexxCommand(
  profile: SortexxProfile,
  cmd: LightCommand,
): { command: string; param: string } {
  const a = profile.ptl.asciiFixed;
  if (!a) throw new RangeError(`profile ${profile.profileId} has no ptl.asciiFixed`);
  const colors = profile.ptl.capabilities.colors;
  const on = a.commands.ledCumulativeOn ?? "2";
  if (cmd.mode === "off") return { command: a.commands.ledCumulativeOff ?? "3", param: a.params.off ?? "0" };
  const colour = cmd.mode === "error" ? "red" : (cmd.color ?? "green");
  const blink = cmd.mode === "error" || cmd.blink === true;
  const param = (blink ? a.params[`${colour}Fast`] : undefined) ?? colors[colour] ?? colors.green ?? "1";
  return { command: on, param: String(param) };
}
