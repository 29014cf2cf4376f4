/**
 * From a validated profile to the options of its codec. Everything device-specific comes from the
 * profile; the few fallbacks here are the agent's own safety limits, not device facts.
 */

import type { ScanInterpretOptions } from "../codecs/scan-interpret.js";
import type { AtopCcbOptions } from "../drivers/atop-ccb/atop-ccb.codec.js";
import { ATOP_MESSAGE_TYPES } from "../drivers/atop-ccb/atop-ccb.codec.js";
import type { AtopCcbParserOptions } from "../drivers/atop-ccb/atop-ccb.parser.js";
import type { HidKeyboardOptions } from "../drivers/hid-keyboard/hid-keyboard.codec.js";
import type { HidPosLayout } from "../drivers/hid-pos/hid-pos.codec.js";
import type { ModbusRtuParserOptions } from "../drivers/modbus-rtu/modbus-rtu.parser.js";
import type { SerialScannerOptions } from "../drivers/serial-scanner/serial-scanner.codec.js";
import type { SortexxResultChars } from "../drivers/sortexx/sortexx-ack.js";
import type { FirmwareProfile, PtlProfile, ScannerProfile } from "./firmware-profile.schema.js";

/** Longest scan the agent keeps in memory; real barcodes (even 2D) are far below this. */
export const MAX_SCAN_BYTES = 4096;

function missing(profile: FirmwareProfile, part: string): never {
  throw new RangeError(`profile ${profile.profileId} has no ${part}`);
}

export function hidKeyboardOptions(p: ScannerProfile): HidKeyboardOptions {
  const k = p.scanner.keyboard ?? missing(p, "scanner.keyboard");
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

export function hidPosLayout(p: ScannerProfile): HidPosLayout {
  const h = p.scanner.hidPos ?? missing(p, "scanner.hidPos");
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

export function serialScannerOptions(p: ScannerProfile): SerialScannerOptions {
  const f = p.scanner.framing ?? missing(p, "scanner.framing");
  return {
    prefix: f.prefix ?? "",
    suffix: f.suffix ?? missing(p, "scanner.framing.suffix"),
    maxLength: f.maxLength ?? MAX_SCAN_BYTES,
  };
}

export function scanInterpretOptions(p: ScannerProfile): ScanInterpretOptions {
  const f = p.scanner.framing;
  return { aimTransmitted: f?.aimTransmitted ?? false, groupSeparator: f?.groupSeparator ?? "\x1d" };
}

export function atopCcbOptions(p: PtlProfile): { encoder: AtopCcbOptions; parser: AtopCcbParserOptions } {
  const a = p.ptl.atopCcb ?? missing(p, "ptl.atopCcb");
  const encoder: AtopCcbOptions = { messageType: a.messageType };
  if (a.displayCharset !== undefined) encoder.displayCharset = a.displayCharset;
  // Events for port-2 devices come with 0x61; accept both so one reader serves the controller.
  const messageTypes = [...new Set([a.messageType, ATOP_MESSAGE_TYPES.port1, ATOP_MESSAGE_TYPES.port2])];
  return { encoder, parser: { messageTypes, maxFrameLength: a.maxFrameLength ?? 0xff } };
}

export function sortexxResults(p: PtlProfile): SortexxResultChars {
  return (p.ptl.asciiFixed ?? missing(p, "ptl.asciiFixed")).results;
}

export function modbusParserOptions(p: FirmwareProfile): ModbusRtuParserOptions<"response"> {
  return { direction: "response", interFrameGapMs: p.timing?.interFrameGapMs ?? null };
}
