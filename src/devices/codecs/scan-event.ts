/** From the text of one decoded scan to the `scan` event every scanner adapter emits (hardware.md §5). */

import type { DeviceEvent } from "../hub.types.js";
import { interpretScan, type ScanInterpretOptions } from "./scan-interpret.js";

export function scanEvent(
  deviceId: string,
  seat: string | null,
  text: string,
  opts: ScanInterpretOptions,
  at: number,
  /** Symbology from a vendor code id (HID POS byte 61 [SRC 9]) when there is no AIM id. */
  vendorSymbology?: string,
): Extract<DeviceEvent, { type: "scan" }> {
  const { value, aim, gs1 } = interpretScan(text, opts);
  const event: Extract<DeviceEvent, { type: "scan" }> = { type: "scan", deviceId, seat, value, at };
  const symbology = aim?.symbology ?? vendorSymbology;
  if (symbology !== undefined) event.symbology = symbology;
  if (gs1?.ok) event.gs1 = Object.fromEntries(gs1.elements.map((e) => [e.ai, e.value]));
  return event;
}
