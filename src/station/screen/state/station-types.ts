/**
 * The station's states the seat's screen tells of (state/station-notices.ts; docs/station.md#notices):
 * what the shell reads or remembers for them, as members of the screen's input (state/types.ts merges
 * `StationStateInput` into `ScreenInput`). Pure data.
 */
import type { StationMode } from "../../seat.types.js";

/** The station's link to central and its outbox, as the shell reads them (src/sync). */
export interface CentralLink {
  /** connected to the broker now */
  connected: boolean;
  /** notifications waiting for central */
  undelivered: number;
  /** `outbox.maxUndelivered`: from there on changes are refused (docs/limits.md) */
  limit: number;
  /** the bytes the waiting notifications take (an upper bound, counted again when near the bound) */
  undeliveredBytes?: number | undefined;
  /** `outbox.maxUndeliveredBytes`: from there on changes are refused as well */
  limitBytes?: number | undefined;
}

/** A staging central asked for that the station refused (put_information `stage_failure`). */
export interface StageFailure {
  put: string;
  tote: string | null;
  bin: string;
  /** the alert codes (`pps_mode_incorrect`, `pps_not_logged_in`, `pps_bin_not_empty`, …) */
  codes: string[];
  /** the station's mode when it refused */
  mode: StationMode;
}

/** A seat's pending work that a change elsewhere dropped mid-line, with what the operator holds. */
export interface DroppedWork {
  kind: "pick" | "put" | "audit";
  /** the order, the tote's put or the audit */
  request: string;
  /** central cancelled it (else it changed elsewhere) */
  cancelled: boolean;
  /** a pick whose pick_before_time passed before it was picked (not_fulfillable) */
  expired?: boolean;
  sku: string;
  quantity: number;
  slot: string | null;
  tote: string | null;
}

export interface StationStateInput {
  /** the link to central; null when the agent has no broker (`mqtt.url: off`) or has not started it */
  link?: CentralLink | null;
  /** stagings refused lately, newest first */
  stageFailures?: StageFailure[];
  /** this seat's work dropped mid-line, until the seat's next input */
  dropped?: DroppedWork | null;
  /** pick lines on the presented racks done since they came (the card's "line n of m") */
  pickDone?: number;
  /** every known slot of the presented racks (the rack face's one grid size) */
  rackSlots?: string[];
  /** the devices of each bin's button and sensor, by bin (a light controller's are `binLights`) */
  binInputs?: Readonly<Record<string, string[]>>;
  /** bins central freed while this seat looked (their orders cancelled or taken back), newest first */
  releasedBins?: ReleasedBin[];
  /** the label printer's own state when it says one (a Zebra's ~HS); null or absent: it says none */
  printerState?: { ok: boolean; cause: string | null } | null;
}

/** A bin freed by central: every order in it was cancelled or taken back before anything was picked. */
export interface ReleasedBin {
  bin: string;
  orders: string[];
}

export type StationNoticeKind =
  | "stage_failed"
  | "work_dropped"
  | "central_unreachable"
  | "outbox_near_full"
  | "outbox_full"
  | "printer_down"
  | "printer_state"
  | "inputs_down"
  | "bin_released";
