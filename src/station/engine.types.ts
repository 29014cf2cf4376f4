/**
 * What the station engine is given and answers (docs/architecture.md#a-scan-end-to-end): an input's
 * outcome, the inputs its watchers see, and what the engine is built from (engine.ts).
 */
import type { Logger } from "pino";
import type { DeviceHub } from "../devices/hub.types.js";
import type { EventBus } from "../events.js";
import type { AuditsService } from "../services/audit/audit.service.js";
import type { Operations } from "../services/operations/operations.service.js";
import type { ScanLookup } from "../services/scan-lookup/scan-lookup.service.js";
import type { ProblemKind } from "./seat.problem.js";
import type { SeatState } from "./seat.types.js";
import type { PauseInput, StationTopology } from "./topology.js";

/**
 * What one input came to: the engine's answer to a scan, a key-in or a bin's button or beam, and what
 * its watchers are told. The station API answers with it (POST /station/scans, the simulator), and the
 * operator screen's taps, which are engine inputs or a station operation, answer with it too.
 */
export type Outcome = {
  seat: string | null;
  result: "done" | "refused" | "debounced" | "ignored";
  /** what the input was taken as, and what the seat did */
  as?: string;
  did?: string;
  code?: string;
  /** why it was refused: a seat-machine reason, or the refusing operation's error code */
  reason?: string;
  message?: string;
  /** the seat's step afterwards */
  step?: SeatState["step"];
  /** the operations that were called, in order (every engine input; a screen tap's operation is its `did`) */
  calls?: string[];
  /** what the screen's words for `did` name (bin full: the closed bin, the order, its new bin) */
  params?: Record<string, string>;
};

/** What the engine was given, as its watchers see it (the operator screen's last event). */
export type EngineInput =
  | { kind: "scan"; barcode: string; source: string }
  | { kind: "keyin"; quantity: number }
  | { kind: "bin"; binId: string; signal: "confirm" | "shortage" | "sensor" }
  /** pending work dropped because its request changed elsewhere */
  | { kind: "changed" }
  /** a problem reported on the operator screen with its quantity (seat.problem.ts) */
  | { kind: "problem"; problem: ProblemKind; quantity: number }
  /** the last scan taken back (seat.undo.ts): a tap, or the `EXC-UNDO` barcode */
  | { kind: "undo"; source: string };

/** Told after every input, once its transactions committed and the lights were set. */
export type EngineWatcher = (input: EngineInput, outcome: Outcome) => void;

export interface EngineDeps {
  hub: DeviceHub;
  bus: EventBus;
  /** The station's operations (one transaction each, the same rules as the HTTP station API). */
  operations: Pick<
    Operations,
    | "login"
    | "logout"
    | "rackPresented"
    | "pick"
    | "pickException"
    | "put"
    | "putException"
    | "release"
    | "binEmptied"
    | "binFull"
  >;
  /** Where an audit's counts go (audit mode). */
  audits: Pick<AuditsService, "count">;
  lookup: ScanLookup;
  /** Seats, bins and where device events belong (topology.ts). */
  topology: StationTopology;
  debounceMs: number;
  errorSignalMs: number;
  /** The station's zone: the day an expiry date is compared with (docs/capture.md#expiry-dates); UTC when absent. */
  timeZone?: string;
  now: () => number;
  log: Logger;
  /** How long a scan took to light (seconds): until the last light command it caused was written. */
  onScanLit?: (seconds: number) => void;
  /** The seats a pause holds (docs/station.md#pausing-a-seat): their inputs are refused, `seat_paused`. */
  pausedSeats?: () => ReadonlySet<string>;
  /** Keeps a pause input's level (one transaction); whether the seats' pauses changed. */
  pauseInput?: (input: PauseInput, active: boolean) => boolean;
  /** A seat's new state, once its calls committed (its lit work is kept across a restart: seat-work.shell.ts). */
  onSeatState?: (seat: string, state: SeatState) => void;
}
