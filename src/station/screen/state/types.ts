/**
 * The operator screen's state (docs/station.md#operator-screen): one object per seat that says everything the
 * page at `/screen/<seat>` shows, pushed on every change; the page only renders it. Texts are message
 * keys with parameters, rendered by the page from the catalogue of `lang` (messages/en.ts, …), so
 * the object itself is the same in every language. Pure data.
 */
import type { DeviceHealth } from "../../../devices/hub.types.js";
import type { ScreenAuditRow, ScreenPickRow, ScreenPutRow } from "../../../domain/screen-rows.js";
import type { BinView, Desired } from "../../bin-lights.js";
import type { ExceptionCode } from "../../scan-codes.js";
import type { ProblemKind } from "../../seat.problem.js";
import type { SeatState, StationMode } from "../../seat.types.js";
import type { CaptureScreenState } from "./capture-types.js";
import type { CorrectionScreenInput, CorrectionScreenState } from "./correction-types.js";
import type { Msg } from "./msg.js";
import type { PathsScreenInput, PathsScreenState } from "./paths-types.js";
import type { SeatControlScreenInput, SeatControlScreenState } from "./seat-control-types.js";
import type { ShiftScreenInput, ShiftScreenState } from "./shift-types.js";
import type { StationNoticeKind, StationStateInput } from "./station-types.js";
import type { SupervisorScreenInput, SupervisorScreenState } from "./supervisor-types.js";

export const LANGUAGES = ["en", "de", "pl", "cs", "nl", "fr", "es", "tr"] as const;
export type Lang = (typeof LANGUAGES)[number];

/** A text on screen: a catalogue key and the values of its `{placeholders}` (state/msg.ts). */
export type { Msg } from "./msg.js";

/** What the instruction line can say (each has a message in every catalogue: a test checks). */
export const INSTRUCTIONS = [
  "login",
  "no_work",
  "waiting_rack",
  "scan_item_from_slot",
  "put_into_bin",
  "scan_each_into_bin",
  "empty_bin",
  "waiting_label",
  "scan_tote_or_item",
  "scan_item_from_tote",
  "scan_slot_for_put",
  "put_into_slot",
  "release_tote",
  "no_audit",
  "scan_slot_to_count",
  "count_slot",
  // capture of serial numbers, lots and expiry dates (docs/capture.md#at-the-seat)
  "scan_serial",
  "scan_lot",
  "scan_expiry",
  // an audit queued for the station: the seat begins it with a tap (shift.ts)
  "begin_audit",
  // the seat is paused (docs/station.md#pausing-a-seat)
  "seat_paused",
] as const;
export type Instruction = (typeof INSTRUCTIONS)[number];

/** What a seat did (engine `did`, or a tapped station operation), each with a message. */
export const DIDS = [
  "logged_in",
  "logged_out",
  "rack_presented",
  "rack_already_presented",
  "bin_lit",
  "unit_scanned",
  "picked",
  "pick_exception",
  "tote_selected",
  "released",
  "put_item",
  "counted",
  "slot_selected",
  "quantity_set",
  "put",
  "put_exception",
  "location_selected",
  "location_counted",
  "audit_damaged",
  "audit_unscannable",
  "cancelled",
  "dropped",
  "binEmptied",
  "release",
  "mode_set",
  "reprinted",
  "language_set",
  "print_sent",
  "label_skipped",
  "supervisor_called",
  "captured",
  // a seat that runs a whole shift: the last scan taken back, an audit begun at the seat
  "undone",
  "audit_begun",
  // what central or a supervisor told the seat (docs/station.md#pausing-a-seat)
  "seat_paused",
  "seat_resumed",
  "message_acknowledged",
  "restart_acknowledged",
  // a bin (box) closed as full, its order going on in a new bin (docs/station.md#bin-full-box-full)
  "bin_closed_full",
  // a unit put wrong after a confirm, corrected by a supervisor at the seat (docs/station.md#undo)
  "put_corrected",
  "bin_corrected",
  "bin_move_done",
] as const;

// ---- what the shell reads for one seat (ScreenReads; the rows it lists are domain/screen-rows.ts) ----

export interface BinOrder {
  id: string;
  type: "PICK" | "PUT";
  state: string;
}

/** Everything one seat's screen is derived from. */
export interface ScreenInput {
  /** the station's storage budget is spent: changes are refused (docs/operations.md#storage-budget) */
  storageBudgetSpent?: boolean;
  seat: string;
  site: string;
  ppsId: string;
  lang: Lang;
  mode: StationMode;
  operator: string | null;
  /** every seat's state (a bin lit by another seat shows on this screen too) */
  seats: ReadonlyMap<string, SeatState>;
  bins: BinView[];
  orders: Readonly<Record<string, BinOrder[]>>;
  /** why the last label of a bin's order did not print, by bin */
  printErrors: Readonly<Record<string, string>>;
  /** the agent prints shipping labels itself (`printing.mode: station`) */
  stationPrinting: boolean;
  devices: DeviceHealth[];
  simulatedScanner: boolean;
  racks: string[];
  pickLines: ScreenPickRow[];
  /** orders in bins still wait for stock on a rack that is not here */
  pickWaiting: boolean;
  puts: ScreenPutRow[];
  audit: { auditId: string; kq: boolean; lines: ScreenAuditRow[] } | null;
  /** operators who logged in at this station lately, newest first (login by tap) */
  operators: string[];
  lastEvent: LastEvent | null;
  /** the clock, read by the shell: an alert and a bin's error signal show until their `until` */
  now?: number;
  /** the last refusal at this seat (its alert), or null */
  refusal?: SeatRefusal | null;
  /** where damaged units go (`station.damageBin`), or null: they stay in the slot */
  damageBin?: string | null;
  /** the IRT bin, where units an exception removed go */
  irtBin?: string | null;
  /** ids of this seat's scanners */
  scanners?: string[];
  /** the light controller of each bin, by bin */
  binLights?: Readonly<Record<string, string>>;
  /** the seat works against the training station (docs/station.md#training) */
  training?: boolean;
}

/** A refusal at a seat as the shell recorded it (the alert is derived from it while `now < until`). */
export interface SeatRefusal {
  /** the seat machine's reason or the refusing operation's error code */
  reason: string;
  /** the scanned text, or null for a tap, a key-in or a button */
  code: string | null;
  /** the item the scanned code is a barcode of */
  item: { sku: string; description: string | null } | null;
  /** the bin whose light shows the error signal (the light the engine flashed) */
  signalBin: string | null;
  /** the bin pressed (a `bin_not_lit` refusal), and the bin the seat's work lit then */
  bin?: string | null;
  lit?: string | null;
  until: number;
}

// ---- the screen state ----

/** A pick line as the page shows it: the row as read, and whether this seat has lit it. */
export type PickLineView = ScreenPickRow & { lit: boolean };

export type Task =
  | {
      kind: "pick";
      racks: string[];
      lines: PickLineView[];
      /**
       * the lit line; `quantity` is what the seat's confirm picks, `scanned` counts units of a scan-required
       * one; null when the seat has nothing lit or the read does not list its line
       */
      current: (PickLineView & { scanned: number | null }) | null;
    }
  | {
      kind: "put";
      totes: Array<{
        tote: string | null;
        putId: string;
        bin: string | null;
        left: number;
        complete: boolean;
      }>;
      /** the tote being worked (selected or that of the pending item) */
      putId: string | null;
      /** the worked tote's items, as read */
      items: ScreenPutRow[];
      current: {
        sku: string;
        quantity: number;
        left: number;
        slot: string | null;
        bin: string | null;
        scanRequired: boolean;
      } | null;
    }
  | {
      kind: "audit";
      auditId: string | null;
      slot: string | null;
      slotsLeft: string[];
      /** the slot's open lines as read, with the running count */
      lines: Array<ScreenAuditRow & { counted: number; damaged: number; unscannable: number }>;
    };

export type BinAction = "empty" | "release" | "reprint";

export interface BinTile {
  id: string;
  state: BinView["state"];
  /** what its light shows: the same derivation as the physical light (bin-lights.ts) */
  light: Desired;
  orders: BinOrder[];
  printState: BinView["printState"];
  printError: string | null;
  /** this seat's pending work lit it */
  mine: boolean;
  actions: BinAction[];
  /** the error signal the physical light shows now (a refused scan or tap), as long as it does */
  signal: "error" | null;
  /** how the bin's orders ended: short when any was settled short (abandoned), else complete */
  outcome: "complete" | "short" | null;
}

/** The takeover of the instruction area after a refusal, for the error signal's duration. */
export interface Alert {
  kind: "refused";
  reason: Msg;
  /** the scanned code */
  code: string | null;
  /** the item's name and SKU when the code is a known item barcode */
  item: string | null;
  /** what to do instead */
  instead: Msg;
  /** epoch ms: the alert is gone then (the publisher pushes the state again) */
  until: number;
}

/** The current line's task card. */
export interface Card {
  phase: "take" | "put";
  /**
   * the line as read, which names the item (SKU, description, image): the pick line, or the put's item;
   * null when the read does not list it (the card still says where and how many)
   */
  row: ScreenPickRow | ScreenPutRow | null;
  slot: string;
  /** the slot's place on the rack face, when its id gives one (face.ts) */
  face: { rows: number; cols: number; row: number; col: number } | null;
  /** what to take or put now (after a scan-required pick's scans, the units still to put) */
  quantity: number;
  /** line n of m on the presented racks (put: item n of m of the tote) */
  line: number;
  lines: number;
  bin: string | null;
  /** the CSS colour of the light the bin shows */
  binColor: string | null;
  /**
   * a put before its slot is scanned: `slot` is only suggested (where the item already is on the presented
   * racks, else an empty slot; "" when there is none), any presented slot may be scanned instead
   */
  suggested?: boolean;
}

export interface Problem {
  kind: ProblemKind;
  label: Msg;
  max: number;
  default: number;
  /** where the units go */
  destination: Msg;
  /** the one-tap exception this problem stands in for: the page does not offer that tap beside it */
  replaces: ExceptionCode;
}

export type NoticeAction = "reprint" | "skip" | "supervisor";

export interface Notice {
  kind: "scanner_down" | "lights_down" | "printer_failed" | "storage_budget" | StationNoticeKind;
  text: Msg;
  bins?: string[];
  actions?: NoticeAction[];
}

export interface KeyIn {
  item: string;
  expected: number;
  max: number;
}

export interface Sound {
  kind: "complete" | "error";
  /** epoch ms of the event it sounds for: the page plays each once */
  at: number;
}

export interface LastEvent {
  /** grows with every event, so the page sounds each one once */
  seq: number;
  at: string;
  input: "scan" | "keyin" | "button" | "beam" | "tap";
  /** the scanned text, the quantity, the bin or the action */
  text: string;
  result: "done" | "refused";
  did?: string;
  reason?: string;
  tone: "good" | "refused" | "complete";
  message: Msg;
  /** the bin the input finished (a complete tone) */
  bin?: string;
}

export interface Allowed {
  /** what a scan is taken for now: any barcode, or only a badge (nobody logged in) */
  scan: "any" | "badge";
  login: boolean;
  logout: boolean;
  confirm: boolean;
  closeSlot: boolean;
  keyin: boolean;
  cancel: boolean;
  exceptions: ExceptionCode[];
  /** modes the station may be switched to from here */
  modes: StationMode[];
  language: boolean;
}

export interface ScreenState {
  site: string;
  ppsId: string;
  seat: string;
  lang: Lang;
  mode: StationMode;
  operator: string | null;
  step: SeatState["step"];
  devices: Array<Pick<DeviceHealth, "id" | "kind" | "connected" | "lastError">>;
  simulatedScanner: boolean;
  instruction: Msg;
  task: Task | null;
  bins: BinTile[];
  lastEvent: LastEvent | null;
  allowed: Allowed;
  operators: string[];
  /** grows whenever this seat's state changes (state/version.ts); a tap carries it (stale-tap rule) */
  version: number;
  alert: Alert | null;
  card: Card | null;
  problems: Problem[];
  notices: Notice[];
  /** the seat's scanner is down: the page offers a code input (the `scan` action) */
  manualEntry: boolean;
  keyin: KeyIn | null;
  sound: Sound | null;
  /** the seat is in training: the page shows the TRAINING banner on every state (docs/station.md#training) */
  training: boolean;
}

// ---- the station's states (state/station-types.ts) and the operator's words (docs/station.md#notices) ----

export interface ScreenInput extends StationStateInput {}

export interface KeyIn {
  /** the numpad's line: the item and what is expected, or (a blind count) counted so far */
  label?: Msg;
}

export interface Problem {
  /** the number the numpad asks for, as a question ("How many are missing?") */
  ask?: Msg;
}

export interface LastEvent {
  /** the input in words ("Confirm", "Button of bin 6"), never a raw code */
  said?: Msg;
}

// ---- the new parts' members and types, each in a file of its role (merged here) ----

export type { CaptureAsk } from "./capture-types.js";
export type { RestartNotice, UnscannablePath } from "./paths-types.js";
export type { SeatMessage, SeatPause } from "./seat-control-types.js";
export type { IdleNotice } from "./shift-types.js";

export interface ScreenInput
  extends SupervisorScreenInput,
    SeatControlScreenInput,
    PathsScreenInput,
    ShiftScreenInput,
    CorrectionScreenInput {}

export interface ScreenState
  extends CaptureScreenState,
    SupervisorScreenState,
    SeatControlScreenState,
    PathsScreenState,
    ShiftScreenState,
    CorrectionScreenState {}
