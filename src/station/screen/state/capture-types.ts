/** What the seat's screen asks to capture (docs/capture.md#at-the-seat): serial numbers, lots, expiry dates. Pure data. */
import type { Msg } from "./msg.js";

export interface CaptureAsk {
  /** what is asked for now; null once the unit's values are all there (confirm puts it into the bin) */
  asked: "serial" | "lot" | "expiry" | null;
  /** what to scan, in words ("Scan the serial number of TSHIRT"); null with `asked` */
  ask: Msg | null;
  /** the unit's values so far, each with its name */
  values: Array<{ label: Msg; value: string }>;
}

/** The screen state's capture member (state/types.ts merges it into `ScreenState`). */
export interface CaptureScreenState {
  /** the lit pick's item needs values captured (docs/capture.md#at-the-seat); null otherwise */
  capture: CaptureAsk | null;
}
