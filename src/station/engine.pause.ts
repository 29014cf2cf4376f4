/**
 * The station engine's part for pauses (docs/station.md#pausing-a-seat): a paused seat's inputs are
 * refused, and a pause input's level (an e-stop, a light curtain) is kept, its seats' lights then show it.
 */
import { type LitState, refreshLights } from "./engine.lights.js";
import type { Outcome } from "./engine.types.js";
import type { SeatStep } from "./seat.types.js";
import type { PauseInput } from "./topology.js";

/** The part of the engine's state a pause reads. */
export interface PauseCore extends LitState {
  deps: LitState["deps"] & {
    /** Keeps a pause input's level (one transaction); whether the seats' pauses changed. */
    pauseInput?: ((input: PauseInput, active: boolean) => boolean) | undefined;
  };
}

/** A paused seat takes no input: refused with the error signal, nothing changed. */
export function pausedRefusal(core: PauseCore, seat: string): SeatStep | null {
  if (!core.deps.pausedSeats?.().has(seat)) return null;
  return { ok: false, reason: "seat_paused", message: `seat ${seat} is paused` };
}

/** A pause input's level: kept for the seats it holds, whose work's lights then show the pause. */
export function pauseInputAt(core: PauseCore, input: PauseInput, active: boolean): Outcome {
  const changed = core.deps.pauseInput?.(input, active) ?? false;
  if (changed) refreshLights(core);
  return {
    seat: null,
    result: changed ? "done" : "ignored",
    as: "pause_input",
    did: active ? "paused" : "resumed",
    calls: [],
  };
}
