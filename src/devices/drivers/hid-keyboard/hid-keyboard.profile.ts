/**
 * What a keyboard-wedge scanner profile says (`scanner.mode: hid-keyboard`): the boot-report layout and how
 * characters outside plain keys arrive (Alt + keypad codes, Ctrl combinations),
 * docs/hardware.md#firmware-profiles.
 */
import { z } from "zod";
import { scanInterpretOptions } from "../../codecs/scan-event.js";
import type { ScanInterpretOptions } from "../../codecs/scan-interpret.js";
import { byte, positiveInt } from "../../profiles/envelope.schema.js";
import { type AddIssue, missingPart, needTransport } from "../../profiles/profile-checks.js";
import type { SpecProfile } from "../driver.js";
import { HidKeyboardDecoder, type HidKeyboardOptions } from "./hid-keyboard.codec.js";

export const keyboardSchema = z.strictObject({
  reportId: byte.nullable(),
  layout: z.literal("us"),
  altNumpad: z.boolean(),
  /** Required with altNumpad: the code page of Alt codes above 127 is not sourced [ASSUMPTION §3.1]. */
  altNumpadAbove127: z.enum(["latin1", "reject"]).optional(),
  ctrlMap: z
    .record(
      z
        .string()
        .regex(/^ctrl\+0x[0-9a-f]{2}$/, { error: 'keys are "ctrl+0x" and a usage id, e.g. ctrl+0x30' }),
      z.string().min(1),
    )
    .optional(),
  idleTerminatorMs: positiveInt.nullable().optional(),
});

export const hidKeyboardSpec = {
  kind: "scanner",
  protocols: ["hid-keyboard"],
  parts: { keyboard: keyboardSchema },
} as const;

export type HidKeyboardProfile = SpecProfile<typeof hidKeyboardSpec>;

export function hidKeyboardChecks(p: HidKeyboardProfile, add: AddIssue): void {
  const s = p.scanner;
  needTransport(p, ["hid"], "for mode hid-keyboard", add);
  const k = s.keyboard;
  if (k === undefined) {
    add(["scanner", "keyboard"], "is required for mode hid-keyboard");
    return;
  }
  if (k.altNumpad && k.altNumpadAbove127 === undefined) {
    add(["scanner", "keyboard", "altNumpadAbove127"], "is required when altNumpad is true");
  }
  if ((s.framing?.suffix ?? "") === "" && (k.idleTerminatorMs ?? null) === null) {
    add(["scanner", "framing", "suffix"], "a suffix or keyboard.idleTerminatorMs must end each scan");
  }
}

export function hidKeyboardOptions(p: HidKeyboardProfile): HidKeyboardOptions {
  const k = p.scanner.keyboard ?? missingPart(p, "scanner.keyboard");
  return {
    reportId: k.reportId,
    layout: k.layout,
    altNumpad: k.altNumpad,
    altNumpadAbove127: k.altNumpadAbove127 ?? "reject",
    ctrlMap: k.ctrlMap ?? {},
    prefix: p.scanner.framing?.prefix ?? "",
    suffix: p.scanner.framing?.suffix ?? "",
    idleTerminatorMs: k.idleTerminatorMs ?? null,
  };
}

export interface HidKeyboardCodec {
  decoder: HidKeyboardDecoder;
  interpret: ScanInterpretOptions;
}

export function hidKeyboardCodec(p: HidKeyboardProfile): HidKeyboardCodec {
  return { decoder: new HidKeyboardDecoder(hidKeyboardOptions(p)), interpret: scanInterpretOptions(p) };
}
