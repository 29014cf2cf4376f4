/**
 * The station engine's lights (engine.ts): after every input and every change elsewhere, each bin's
 * and slot's light is brought in line with the bins' state and what the seats hold (bin-lights.ts says
 * what each should show, lights.shell.ts writes only the differences); a refusal flashes the error
 * signal where the operator is looking.
 */
import type { ScanLookup } from "../services/scan-lookup/scan-lookup.service.js";
import {
  type BinView,
  binLight,
  heldBySeats,
  OFF,
  PAUSED_LIGHT,
  pausedWork,
  slotLight,
} from "./bin-lights.js";
import { type BinMove, binMoveLights } from "./bin-moves.js";
import type { createLightsShell } from "./lights.shell.js";
import { pendingBin } from "./seat.machine.js";
import type { SeatState } from "./seat.types.js";
import type { StationTopology } from "./topology.js";

/** The part of the engine's state the lights read and keep. */
export interface LitState {
  deps: {
    topology: StationTopology;
    lookup: Pick<ScanLookup, "bins">;
    /** the seats a pause holds: their work's lights show the pause (bin-lights.ts PAUSED_LIGHT) */
    pausedSeats?: (() => ReadonlySet<string>) | undefined;
  };
  states: Map<string, SeatState>;
  lights: ReturnType<typeof createLightsShell>;
  /** the bins' state as last read; null after a change */
  bins: BinView[] | null;
  /** the slots lit at the last refresh: turned off once no seat holds them */
  litSlots: Set<string>;
  /** a unit of a confirmed pick to move between bins, by seat (engine.bin-move.ts): shown over the rest */
  binMoves?: Map<string, BinMove>;
}

/** Brings every bin's and slot's light in line with the bins' state and what the seats hold. */
export function refreshLights(core: LitState): void {
  const { topology } = core.deps;
  core.bins ??= core.deps.lookup.bins();
  const held = heldBySeats(core.states.values());
  const paused = pausedWork(core.states, core.deps.pausedSeats?.() ?? new Set());
  const moving = binMoveLights(core.binMoves);
  for (const b of core.bins) {
    const light = topology.binLight(b.id);
    if (light)
      core.lights.set(
        light,
        moving.get(b.id) ?? (paused.bins.has(b.id) ? PAUSED_LIGHT : binLight(b, held.bins.get(b.id))),
      );
  }
  for (const location of new Set([...core.litSlots, ...held.slots.keys()])) {
    const light = topology.slotLight(location);
    const q = held.slots.get(location);
    if (light)
      core.lights.set(
        light,
        q === undefined ? OFF : paused.slots.has(location) ? PAUSED_LIGHT : slotLight(q),
      );
  }
  core.litSlots = new Set(held.slots.keys());
}

/** A seat's refusal signal: on the bin its pending work lit, else on the station's signal light. */
export function signalSeat(core: LitState, state: SeatState): void {
  const bin = pendingBin(state);
  const light = (bin !== null ? core.deps.topology.binLight(bin) : null) ?? core.deps.topology.signalLight();
  if (light) core.lights.signal(light);
}

/** A bin's refusal signal, on its own light (a press no seat's work lit, or its operation refused). */
export function signalBin(core: LitState, binId: string): void {
  const light = core.deps.topology.binLight(binId);
  if (light) core.lights.signal(light);
}
