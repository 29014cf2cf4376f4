/**
 * One seat's screen input for the pure screen-state tests: a pick station with three empty bins and
 * nothing on it, `over` replacing any member. Each test states only what its case is about.
 */
import type { ScreenInput } from "../../../../src/station/screen/state/types.js";
import type { SeatState } from "../../../../src/station/seat.types.js";

export const BINS: ScreenInput["bins"] = ["1", "2", "3"].map((id) => ({
  id,
  state: "empty" as const,
  printState: "none" as const,
  completePut: null,
}));

export function screenInput(
  over: Partial<ScreenInput> = {},
  seat: SeatState = { step: "ready", tote: null },
): ScreenInput {
  return {
    seat: "front",
    site: "dc1",
    ppsId: "1",
    lang: "en",
    mode: "pick",
    operator: "alice",
    seats: new Map([["front", seat]]),
    bins: BINS,
    orders: {},
    printErrors: {},
    stationPrinting: false,
    devices: [],
    simulatedScanner: false,
    racks: [],
    pickLines: [],
    pickWaiting: false,
    puts: [],
    audit: null,
    operators: [],
    lastEvent: null,
    ...over,
  };
}
