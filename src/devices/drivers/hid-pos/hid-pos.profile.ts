/**
 * What a HID POS scanner profile says (`scanner.mode: hid-pos`, usage page 0x8C): where length, AIM id, data,
 * vendor code id and the "continued" flag sit in its input report (docs/hardware.md#firmware-profiles).
 * Vendors differ (Honeywell/Access-IS vs Newland) [SRC 10, 11, 12, 24].
 */
import { z } from "zod";
import { MAX_SCAN_BYTES, scanInterpretOptions } from "../../codecs/scan-event.js";
import type { ScanInterpretOptions } from "../../codecs/scan-interpret.js";
import { byte, offset, positiveInt } from "../../profiles/envelope.schema.js";
import { type AddIssue, missingPart, needTransport } from "../../profiles/profile-checks.js";
import type { SpecProfile } from "../driver.js";
import { HidPosDecoder, type HidPosLayout } from "./hid-pos.codec.js";

export const hidPosSchema = z.strictObject({
  reportId: byte,
  /** false when the report id is not byte 0 of the buffer (WebHID) [SRC 9]; absent = true (hidapi). */
  reportIdInBuffer: z.boolean().optional(),
  reportLength: z.int().min(2).max(1024),
  lengthOffset: offset,
  aimOffset: offset.nullable(),
  /** Accept `]` one byte after aimOffset [SRC 9]; absent = false. */
  aimProbe: z.boolean().optional(),
  dataOffset: offset,
  maxDataPerReport: positiveInt,
  vendorCodeIdOffset: offset.nullable(),
  /** null: every report is a whole message (Newland FM430) [SRC 24]. */
  continuedOffset: offset.nullable(),
  continuedMask: z.int().min(1).max(0xff),
  maxMessageBytes: positiveInt.optional(),
  triggerReport: z
    .strictObject({ reportId: byte, bits: z.record(z.string(), z.int().min(0).max(7)) })
    .optional(),
});

export const hidPosSpec = {
  kind: "scanner",
  protocols: ["hid-pos"],
  parts: { hidPos: hidPosSchema },
} as const;

export type HidPosProfile = SpecProfile<typeof hidPosSpec>;

export function hidPosChecks(p: HidPosProfile, add: AddIssue): void {
  needTransport(p, ["hid"], "for mode hid-pos", add);
  const h = p.scanner.hidPos;
  if (h === undefined) {
    add(["scanner", "hidPos"], "is required for mode hid-pos");
    return;
  }
  const ends: Array<[string, number | null]> = [
    ["lengthOffset", h.lengthOffset + 1],
    ["aimOffset", h.aimOffset === null ? null : h.aimOffset + 3],
    ["vendorCodeIdOffset", h.vendorCodeIdOffset === null ? null : h.vendorCodeIdOffset + 1],
    ["continuedOffset", h.continuedOffset === null ? null : h.continuedOffset + 1],
    ["maxDataPerReport", h.dataOffset + h.maxDataPerReport],
  ];
  for (const [field, end] of ends) {
    if (end !== null && end > h.reportLength) add(["scanner", "hidPos", field], "lies beyond reportLength");
  }
}

export function hidPosLayout(p: HidPosProfile): HidPosLayout {
  const h = p.scanner.hidPos ?? missingPart(p, "scanner.hidPos");
  return {
    reportId: h.reportId,
    reportIdInBuffer: h.reportIdInBuffer ?? true,
    lengthOffset: h.lengthOffset,
    aimOffset: h.aimOffset,
    aimProbe: h.aimProbe ?? false,
    dataOffset: h.dataOffset,
    maxDataPerReport: h.maxDataPerReport,
    vendorCodeIdOffset: h.vendorCodeIdOffset,
    continuedOffset: h.continuedOffset,
    continuedMask: h.continuedMask,
    stripSuffix: p.scanner.framing?.suffix ?? "",
    maxMessageBytes: h.maxMessageBytes ?? MAX_SCAN_BYTES,
  };
}

export interface HidPosCodec {
  decoder: HidPosDecoder;
  interpret: ScanInterpretOptions;
  /** Vendor code id char -> symbology, for scans without an AIM id (Honeywell byte 61 [SRC 9]). */
  codeNames: Readonly<Record<string, string>>;
}

export function hidPosCodec(p: HidPosProfile): HidPosCodec {
  return {
    decoder: new HidPosDecoder(hidPosLayout(p)),
    interpret: scanInterpretOptions(p),
    codeNames: p.scanner.vendorCodeIds ?? {},
  };
}
