/**
 * One seat's screen input for the pure screen-state tests: a pick station with three empty bins and
 * nothing on it, `over` replacing any member; and the rows the screen's repository reads
 * (domain/screen-rows.ts), each test replacing only the fields its case is about.
 */
import type { ScreenPickRow, ScreenPutRow } from "../../../../src/domain/screen-rows.js";
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

/** A reserved pick line of order P1: 3 × item A from slot S1 into bin 2. */
export const pickRow = (over: Partial<ScreenPickRow> = {}): ScreenPickRow => ({
  order: "P1",
  line: "P1-L1",
  slot: "S1",
  itemId: 1,
  sku: "A",
  description: "item A",
  imageUrl: null,
  quantity: 3,
  bin: "2",
  scanRequired: false,
  ...over,
});

/** Item A of put U1 (tote T1, bin 3): 5 expected, 5 still to put. */
export const putRow = (over: Partial<ScreenPutRow> = {}): ScreenPutRow => ({
  putId: "U1",
  tote: "T1",
  bin: "3",
  state: "staged",
  itemId: 1,
  sku: "A",
  description: null,
  imageUrl: null,
  expected: 5,
  left: 5,
  ...over,
});
