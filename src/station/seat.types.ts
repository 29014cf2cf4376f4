/**
 * Shapes of the seat machine (seat.machine.ts): what a seat is doing, what the shell tells it about
 * the station for one input, and the operations it asks the shell to call. Pure data. The lights are
 * not asked for: they follow from the seats' states (bin-lights.ts `heldBySeats`).
 */
import type { AuditCountInput } from "../domain/audit.schema.js";
import type { CaptureKind, CaptureValues } from "../domain/capture.js";
import type {
  PickExceptionInput,
  PickTransactionInput,
  PutExceptionInput,
  PutTransactionInput,
  RackPresentedInput,
  StationMode,
} from "../domain/station.schema.js";
import type { ExceptionCode } from "./scan-codes.js";

/** One reserved pick line at a presented slot, in an order whose bin is at the station. */
export interface PickTarget {
  externalServiceRequestId: string;
  line: string;
  location: string;
  itemId: number;
  /** what to pick now: the line's reservation at this slot (never more than outstanding) */
  quantity: number;
  binId: string;
  /** the item's `scan_required`: every unit is scanned, the last scan confirms (seat.pick.ts) */
  scanRequired?: boolean;
  /** what the item needs captured per unit before it goes into the bin (seat.capture.ts) */
  capture?: CaptureKind[];
}

/** A staged put that still expects `left` of an item. */
export interface PutTarget {
  externalServiceRequestId: string;
  sku: string;
  itemId: number;
  left: number;
  binId: string | null;
  toteId: string | null;
  /** the item's `scan_required`: counted by scans only, no key-in */
  scanRequired?: boolean;
}

export interface AuditLineView {
  auditLineId: string;
  location: string;
  itemId: number;
  /** lines still `auditline_started` are the ones to count */
  open: boolean;
}

export interface AuditView {
  auditId: string;
  kq: boolean;
  lines: AuditLineView[];
}

export type { StationMode };

/** What a scanned text can be in the station's data (the shell looks each up; the step chooses). */
export type DataMeaning =
  | {
      kind: "item";
      itemId: number;
      sku: string;
      scanRequired?: boolean;
      /** values a GS1 barcode of the item carried (AI 21, 10, 17 as encoded; docs/capture.md) */
      gs1?: Partial<Record<CaptureKind, string>>;
    }
  // a packing level's barcode (itemConfig: a case, an inner pack): never counted as one unit
  | { kind: "level"; itemId: number; sku: string; levelPath: string }
  | { kind: "slot"; location: string; msu: string; presented: boolean }
  | { kind: "msu"; msu: string; locations: string[]; presented: boolean }
  | { kind: "tote"; externalServiceRequestId: string; state: string; binId: string | null };

/** The station as this one input needs it, read by the shell just before. */
export interface SeatFacts {
  mode: StationMode;
  seat: string;
  /** the operator logged in at this seat */
  user: string | null;
  /** pick work for the scanned item or slot, in work order, minus what other seats have pending */
  picks: PickTarget[];
  /** staged puts expecting the scanned item */
  puts: PutTarget[];
  /** the audit being counted at the station (audit mode) */
  audit: AuditView | null;
  /** today in the station's zone, `YYYY-MM-DD` (an expiry date before it is refused) */
  today?: string;
  /** the serial numbers this input carries that the station already picked (docs/capture.md) */
  serialsTaken?: readonly string[];
  /** pick work for the scan exists, but only lit at another seat (left out of `picks`) */
  otherSeat?: boolean;
}

export type SeatState =
  | { step: "ready"; tote: string | null }
  /** `scanned`: units of a scan-required pick scanned so far; `captured`: the unit's values so far */
  | { step: "pick_confirm"; pick: PickTarget; scanned?: number; captured?: CaptureValues }
  | { step: "put_slot"; tote: string | null; put: PutTarget; quantity: number }
  | { step: "put_confirm"; tote: string | null; put: PutTarget; quantity: number; location: string }
  | {
      step: "audit_count";
      auditId: string;
      location: string;
      counts: Readonly<Record<string, number>>;
      last: string | null;
      /** units tapped or scanned as damaged / unscannable, by line */
      damaged?: Readonly<Record<string, number>>;
      unscannable?: Readonly<Record<string, number>>;
      /** the last scanned item is scan-required (no key-in for it) */
      lastScanRequired?: boolean;
    };

export const READY: SeatState = { step: "ready", tote: null };

export type SeatInput =
  | { type: "scan"; barcode: string; meanings: DataMeaning[]; facts: SeatFacts }
  | { type: "keyin"; quantity: number; facts: SeatFacts }
  /** the lit bin's confirm button, its beam (sensor), or its shortage button */
  | { type: "bin"; binId: string; signal: "confirm" | "sensor" | "shortage"; facts: SeatFacts }
  /** the request behind the pending work changed elsewhere (bus): drop it if it is gone */
  | { type: "changed"; stillValid: boolean };

/**
 * A station operation, as the operations door (services/operations) names it, with its own input
 * (domain/station.schema.ts, the station API's shapes; the audit count's is domain/audit.schema.ts),
 * so the engine passes it on as it is.
 */
export type OpCall =
  | { op: "login"; seat: string; user: string }
  | { op: "logout"; seat: string }
  | { op: "rackPresented"; input: RackPresentedInput }
  | { op: "pick"; input: PickTransactionInput }
  | { op: "pickException"; input: PickExceptionInput }
  | { op: "put"; input: PutTransactionInput }
  | { op: "putException"; input: PutExceptionInput }
  | { op: "release"; externalServiceRequestId: string }
  | { op: "binEmptied"; binId: string }
  | { op: "auditCount"; auditId: string; input: AuditCountInput };

/** Stable reasons a scan or press is refused (docs/station.md#station-engine-scans-lights-and-buttons); the screen has a message for each. */
export const REFUSAL_REASONS = [
  "unknown_barcode",
  "bad_code",
  "not_logged_in",
  "seat_taken",
  "finish_first",
  "nothing_pending",
  "no_work",
  "not_expected",
  "slot_not_presented",
  "not_this_step",
  "more_than_expected",
  "exception_not_applicable",
  "keyin_not_allowed",
  "no_audit",
  // a scan-required item: each unit is scanned, key-in and one-scan-for-all are refused
  "scan_each_unit",
  // the barcode of a packing level (a case holds many units): the unit's own barcode is scanned
  "level_barcode",
  // a bin's button pressed while no seat's work lit it and the bin has nothing to take away
  "bin_not_lit",
  // capture of serial numbers, lots and expiry dates (docs/capture.md#at-the-seat)
  "capture_first",
  "capture_expected",
  "serial_per_unit",
  "bad_gs1",
  "bad_serial",
  "bad_lot",
  "bad_expiry",
  "expired",
  "serial_taken",
  // undo (seat.undo.ts): no scan to take back; the last input was confirmed (a supervisor corrects it)
  "nothing_to_undo",
  "undo_after_confirm",
  // the seat is paused (central, a supervisor or its pause input): nothing is taken until it resumes
  "seat_paused",
  // the only work for the scan is lit at another seat (docs/station.md#two-seats-one-station)
  "other_seat",
  // a supervisor's badge scanned with no supervisor's prompt open at the seat (docs/station.md#supervisor-at-the-seat)
  "no_supervisor_prompt",
] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

export interface Resolved {
  /** what the input was taken as */
  as: DataMeaning["kind"] | "badge" | "exception" | "keyin" | "bin" | "capture" | "none";
  /** what the seat did, e.g. `bin_lit`, `picked` */
  did: string;
  code?: ExceptionCode;
}

export type SeatStep =
  | { ok: true; state: SeatState; calls: OpCall[]; resolved: Resolved }
  | { ok: false; reason: RefusalReason; message: string; as?: Resolved["as"] };
