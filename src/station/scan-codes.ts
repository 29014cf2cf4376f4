/**
 * Barcodes with a fixed meaning at the station, read from the text alone (pure): operator badges and
 * the exception/control sheet the operator keeps at the seat (docs/architecture.md#scan-codes-and-exceptions:
 * an exception menu in the interface's vocabulary, cancel before confirmation, badge login).
 * Everything else (items, slots, MSUs, totes) is known only from the station's data.
 */
import type { PickExceptionReason } from "../domain/pick.machine.js";
import type { PutExceptionState } from "../domain/put.machine.js";

/** `BADGE-<user>`: logs `<user>` in at the scanner's seat, or out when it is the user already there. */
export const BADGE_PREFIX = "BADGE-";
/** `EXC-<CODE>`: one of EXCEPTION_CODES. */
export const EXCEPTION_PREFIX = "EXC-";

/** The exceptions of the spec's pick and put container states (the screen's `exception` action takes these). */
export const CONTAINER_EXCEPTIONS = [
  "ITEM_MISSING",
  "PHYSICALLY_DAMAGED",
  "UNSCANNABLE",
  "EXCESS",
  "OVERSIZED",
  "WAREHOUSE_FULL",
  "SPACE_UNAVAILABLE",
] as const;

/** What the screen's `exception` action takes: the container exceptions, and bin (box) full. */
export const SCREEN_EXCEPTIONS = [...CONTAINER_EXCEPTIONS, "BIN_FULL", "BOX_FULL"] as const;

export const EXCEPTION_CODES = [
  ...CONTAINER_EXCEPTIONS,
  // control: drop what is pending at the seat; confirm it (as the lit bin's button would)
  "CANCEL",
  "CONFIRM",
  // take the last scan back (seat.undo.ts): the engine answers it before the seat machine sees it
  "UNDO",
  // a lit pick's bin (a pick+pack's box) takes no more: closed, its orders go on in a new bin (engine.bin-full.ts)
  "BIN_FULL",
  "BOX_FULL",
] as const;
export type ExceptionCode = (typeof EXCEPTION_CODES)[number];

export type FixedMeaning =
  | { kind: "badge"; user: string }
  | { kind: "exception"; code: ExceptionCode }
  | { kind: "bad_code"; reason: string }
  | null;

const USER = /^[^\s]{1,128}$/;

/** The meaning a barcode has by its text, or null when only the data can tell. */
export function fixedMeaning(barcode: string): FixedMeaning {
  if (barcode.startsWith(BADGE_PREFIX)) {
    const user = barcode.slice(BADGE_PREFIX.length);
    return USER.test(user) ? { kind: "badge", user } : { kind: "bad_code", reason: "badge without a user" };
  }
  if (barcode.startsWith(EXCEPTION_PREFIX)) {
    const code = barcode.slice(EXCEPTION_PREFIX.length);
    const known = EXCEPTION_CODES.find((c) => c === code);
    return known
      ? { kind: "exception", code: known }
      : { kind: "bad_code", reason: `no exception '${code}'` };
  }
  return null;
}

/** Pick exceptions (spec: actual container states seen in pick actuals). */
const PICK_REASONS: Partial<Record<ExceptionCode, PickExceptionReason>> = {
  ITEM_MISSING: "item_missing",
  PHYSICALLY_DAMAGED: "physically_damaged",
  UNSCANNABLE: "unscannable",
};

export function pickReason(code: ExceptionCode): PickExceptionReason | null {
  return PICK_REASONS[code] ?? null;
}

/**
 * Put exceptions (spec: put container states, front and back). The seat named `back` raises the
 * `back_` states, every other seat the `front_` ones; a code the side does not have is refused.
 */
const PUT_REASONS: Record<"front" | "back", Partial<Record<ExceptionCode, PutExceptionState>>> = {
  front: {
    ITEM_MISSING: "front_missing",
    PHYSICALLY_DAMAGED: "front_physically_damaged",
    UNSCANNABLE: "front_unscannable",
    EXCESS: "front_excess_entities",
    WAREHOUSE_FULL: "front_warehouse_full",
    SPACE_UNAVAILABLE: "front_space_unavailable",
  },
  back: {
    PHYSICALLY_DAMAGED: "back_physically_damaged",
    UNSCANNABLE: "back_unscannable",
    EXCESS: "back_excess_entities",
    OVERSIZED: "back_oversized_entities",
    WAREHOUSE_FULL: "back_warehouse_full",
  },
};

export function putReason(code: ExceptionCode, seat: string): PutExceptionState | null {
  return PUT_REASONS[seat === "back" ? "back" : "front"][code] ?? null;
}
