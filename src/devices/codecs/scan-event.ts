/**
 * From the text of one decoded scan to the `scan` event every scanner adapter emits (hardware.md §5),
 * and what a scanner profile says about interpreting it (every scanner mode shares these fields).
 */
import type { DeviceEvent } from "../hub.types.js";
import type { KindProfile } from "../profiles/profile-kinds.js";
import { interpretScan, type ScanInterpretOptions } from "./scan-interpret.js";

/** Longest scan the agent keeps in memory; real barcodes (even 2D) are far below this. */
export const MAX_SCAN_BYTES = 4096;

export function scanInterpretOptions(p: KindProfile<"scanner">): ScanInterpretOptions {
  const f = p.scanner.framing;
  return { aimTransmitted: f?.aimTransmitted ?? false, groupSeparator: f?.groupSeparator ?? "\x1d" };
}

export function scanEvent(
  deviceId: string,
  text: string,
  opts: ScanInterpretOptions,
  at: number,
  /** Symbology from a vendor code id (HID POS byte 61 [SRC 9]) when there is no AIM id. */
  vendorSymbology?: string,
): Extract<DeviceEvent, { type: "scan" }> {
  const { value, aim, gs1 } = interpretScan(text, opts);
  const event: Extract<DeviceEvent, { type: "scan" }> = { type: "scan", deviceId, value, at };
  const symbology = aim?.symbology ?? vendorSymbology;
  if (symbology !== undefined) event.symbology = symbology;
  if (gs1?.ok) event.gs1 = Object.fromEntries(gs1.elements.map((e) => [e.ai, e.value]));
  return event;
}
