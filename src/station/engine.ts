/**
 * The station engine (docs/architecture.md#a-scan-end-to-end: device events → service calls → device
 * commands). It reads what the seat machine needs, feeds it one input, makes the operation calls it
 * asks for (each one transaction), keeps the new state only when they all committed, then brings the
 * lights in line with bin-lights.ts (engine.core.ts has the steps). Scans from scanners, from
 * `POST /station/scans` and taps on the operator screen take the same path.
 * Nothing runs before `start()`; `stop()` drops every subscription and timer.
 */
import type { DeviceEvent } from "../devices/hub.types.js";
import { debounce } from "./debounce.js";
import { routeDeviceEvent } from "./device-input.js";
import {
  createCore,
  type EngineDeps,
  type EngineInput,
  type EngineOutcome,
  type EngineWatcher,
  feed,
  mustSeat,
  onChange,
  pressBin,
  refreshLights,
  tell,
  world,
} from "./engine.core.js";
import { fixedMeaning } from "./scan-codes.js";

export type { EngineDeps, EngineInput, EngineOutcome, EngineWatcher } from "./engine.core.js";

const OWNER = "station-engine";

export function createStationEngine(deps: EngineDeps) {
  const core = createCore(deps);
  let last: EngineOutcome | null = null;

  /** scan → light (docs/architecture.md#performance-targets), measured only for scans that lit. */
  function timeLight(started: number, sentBefore: number): void {
    const report = deps.onScanLit;
    if (!report || core.lights.sent() === sentBefore) return;
    core.lights.written().then((ok) => {
      if (ok) report((performance.now() - started) / 1000);
    });
  }

  function scanAt(seat: string, barcode: string, source: string): EngineOutcome {
    mustSeat(core, seat);
    const input: EngineInput = { kind: "scan", barcode, source };
    const d = debounce(core.seen, { source, value: barcode, at: deps.now() }, deps.debounceMs);
    core.seen = d.state;
    if (d.drop) return tell(core, input, { seat, result: "debounced", calls: [] });
    const meanings = fixedMeaning(barcode) ? [] : deps.lookup.meanings(barcode);
    const scan = { type: "scan" as const, barcode, meanings, world: world(core, seat, meanings) };
    return tell(core, input, feed(core, seat, scan));
  }

  const engine = {
    /** A scan at a seat, as a scanner sends it (`source`: the scanner, for the debounce window). */
    scan(seat: string, barcode: string, source = `api:${seat}`): EngineOutcome {
      const started = performance.now();
      const sentBefore = core.lights.sent();
      const out = scanAt(seat, barcode, source);
      timeLight(started, sentBefore);
      return out;
    },

    /** A quantity keyed in at a seat (confirms a pick or put with it; an audit count where kq). */
    keyin(seat: string, quantity: number): EngineOutcome {
      mustSeat(core, seat);
      const keyin = { type: "keyin" as const, quantity, world: world(core, seat, []) };
      return tell(core, { kind: "keyin", quantity }, feed(core, seat, keyin));
    },

    /** A bin's confirm or shortage button, or its beam: to the seat whose work lit it, else the bin itself. */
    press(binId: string, signalOf: "confirm" | "shortage" | "sensor"): EngineOutcome {
      return tell(core, { kind: "bin", binId, signal: signalOf }, pressBin(core, binId, signalOf));
    },

    /** Tell `watcher` about every input from now on (until `stop`). */
    watch(watcher: EngineWatcher): void {
      core.watchers.add(watcher);
    },

    onDevice(e: DeviceEvent): void {
      last = routeDeviceEvent(e, engine, deps);
    },

    /** What the engine made of the last device event (the simulator's answer). */
    last: (): EngineOutcome | null => last,

    /** Every seat's step and pending work (the operator screen). */
    seats: () => [...core.states].map(([seat, state]) => ({ seat, ...state })),

    start(): void {
      deps.hub.onEvent(OWNER, (e) => engine.onDevice(e));
      for (const ev of ["request", "station", "audit"] as const) deps.bus.on(OWNER, ev, () => onChange(core));
      refreshLights(core);
    },

    stop(): void {
      deps.hub.off(OWNER);
      deps.bus.off(OWNER);
      core.watchers.clear();
      if (core.recheck) clearImmediate(core.recheck);
      core.recheck = undefined;
      core.lights.stop();
    },
  };
  return engine;
}

export type StationEngine = ReturnType<typeof createStationEngine>;
