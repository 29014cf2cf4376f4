/** The shift's paths on the seat's screen (docs/station.md#paths-of-a-shift): after a restart, the unscannable unit. Pure data. */
import type { ScreenSlotRow } from "../../../domain/screen-rows.js";
import type { LostWork } from "../../../domain/seat-work.js";
import type { Msg } from "./msg.js";

/** The work a seat had lit when the agent restarted: what was recorded, what to do now. */
export interface RestartNotice {
  /** "2 of 3 units of ORDER-1 line ORDER-1-1 were recorded before the restart" */
  text: Msg;
  /** what to do with the units not recorded (in hand or in the bin), or that nothing is left to do */
  todo: Msg;
  recorded: number;
  quantity: number;
}

/** What the Unscannable button offers at a lit pick before it writes anything off. */
export interface UnscannablePath {
  /** the pick's slot: its label identifies the item there */
  slot: string;
  bin: string;
  order: string;
  /** the item is scanned unit by unit: the slot's label or the typed code counts a unit */
  scanEach: boolean;
  /** the units a write-off settles: the order ends that many short */
  writeOff: number;
}

/** What the shell reads for them (state/types.ts merges it into `ScreenInput`). */
export interface PathsScreenInput {
  /** put mode: the presented racks' slots and their items (the put card's suggested slot) */
  slots?: ScreenSlotRow[];
  /** what a restart did to the work this seat had lit, until acknowledged */
  restart?: LostWork | null;
}

/** What the seat shows of them (state/types.ts merges it into `ScreenState`). */
export interface PathsScreenState {
  /** a lit pick's unscannable path: what identifies the unit instead, and what a write-off ends short */
  unscannable?: UnscannablePath | null;
  /** what a restart did to the work this seat had lit: shown until acknowledged (`acknowledge`) */
  restart?: RestartNotice | null;
}
