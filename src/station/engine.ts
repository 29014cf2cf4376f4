/**
 * The station engine's shell (DESIGN.md §2: device events → service calls → device commands). It
 * reads what the seat machine needs, feeds it one input, makes the operation calls it asks for (each
 * one transaction), keeps the new state only when they all committed, then brings the lights in line
 * with bin-lights.ts. Scans from scanners and from `POST /station/scans` take the same path.
 * Nothing runs before `start()`; `stop()` drops every subscription and timer.
 */
import type { Logger } from "pino";
import type { DeviceEvent, DeviceHub } from "../devices/hub.types.js";
import { AppError, isAppError } from "../domain/errors.js";
import type { EventBus } from "../events.js";
import type { ScanLookup } from "../services/scan-lookup/scan-lookup.service.js";
import { type BinView, binLight, binPress, heldBySeats, OFF, slotLight } from "./bin-lights.js";
import { debounce, emptyDebounce } from "./debounce.js";
import { routeDeviceEvent } from "./device-input.js";
import { createLightsShell } from "./lights.shell.js";
import type { OpRunner } from "./op-calls.js";
import { fixedMeaning } from "./scan-codes.js";
import { pendingBin, stepSeat } from "./seat.machine.js";
import { type DataMeaning, READY, type SeatInput, type SeatState, type SeatStep } from "./seat.types.js";
import type { StationTopology } from "./topology.js";
import { readWorld } from "./world.js";

const OWNER = "station-engine";

export interface EngineOutcome {
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
  /** the operations that were called, in order */
  calls: string[];
}

/** What the engine was given, as its watchers see it (the operator screen's last event). */
export type EngineInput =
  | { kind: "scan"; barcode: string; source: string }
  | { kind: "keyin"; quantity: number }
  | { kind: "bin"; binId: string; signal: "confirm" | "shortage" | "sensor" }
  /** pending work dropped because its request changed elsewhere */
  | { kind: "changed" };

/** Told after every input, once its transactions committed and the lights were set. */
export type EngineWatcher = (input: EngineInput, outcome: EngineOutcome) => void;

export interface EngineDeps {
  hub: DeviceHub;
  bus: EventBus;
  run: OpRunner;
  lookup: ScanLookup;
  /** Seats, bins and where device events belong (topology.ts). */
  topology: StationTopology;
  debounceMs: number;
  errorSignalMs: number;
  now: () => number;
  log: Logger;
}

export function createStationEngine(deps: EngineDeps) {
  const { lookup, topology, log } = deps;
  const states = new Map<string, SeatState>(topology.seats.map((s) => [s, READY]));
  const lights = createLightsShell({ hub: deps.hub, errorSignalMs: deps.errorSignalMs, log });
  let seen = emptyDebounce();
  let bins: BinView[] | null = null;
  let litSlots = new Set<string>();
  let stepping = false;
  let recheck: NodeJS.Immediate | undefined;
  let last: EngineOutcome | null = null;
  const watchers = new Set<EngineWatcher>();

  function tell(input: EngineInput, outcome: EngineOutcome): EngineOutcome {
    for (const w of watchers) {
      try {
        w(input, outcome);
      } catch (err) {
        log.error({ err }, "station engine watcher failed");
      }
    }
    return outcome;
  }

  function mustSeat(seat: string): SeatState {
    const s = states.get(seat);
    if (!s) throw new AppError("not_found", `no seat '${seat}'`, [{ path: "seat", message: "unknown seat" }]);
    return s;
  }

  const world = (seat: string, meanings: DataMeaning[]) => readWorld(lookup, states, seat, meanings);

  function refreshLights(): void {
    bins ??= lookup.bins();
    const held = heldBySeats(states.values());
    for (const b of bins) {
      const light = topology.binLight(b.id);
      if (light) lights.set(light, binLight(b, held.bins.get(b.id)));
    }
    for (const location of new Set([...litSlots, ...held.slots.keys()])) {
      const light = topology.slotLight(location);
      const q = held.slots.get(location);
      if (light) lights.set(light, q === undefined ? OFF : slotLight(q));
    }
    litSlots = new Set(held.slots.keys());
  }

  function signal(state: SeatState): void {
    const bin = pendingBin(state);
    const light = (bin !== null ? topology.binLight(bin) : null) ?? topology.signalLight();
    if (light) lights.signal(light);
  }

  function apply(seat: string, before: SeatState, step: SeatStep): EngineOutcome {
    if (!step.ok) {
      signal(before);
      return {
        seat,
        result: "refused",
        reason: step.reason,
        message: step.message,
        step: before.step,
        calls: [],
        ...(step.as ? { as: step.as } : {}),
      };
    }
    const calls = step.actions.flatMap((a) => (a.kind === "call" ? [a.call] : []));
    stepping = true;
    try {
      for (const c of calls) deps.run(seat, c);
    } catch (err) {
      if (!isAppError(err)) throw err;
      signal(before);
      return {
        seat,
        result: "refused",
        as: step.resolved.as,
        reason: err.code,
        message: err.message,
        step: before.step,
        calls: [],
      };
    } finally {
      stepping = false;
    }
    states.set(seat, step.state);
    if (calls.length) bins = null;
    refreshLights();
    const { as, did, code } = step.resolved;
    return {
      seat,
      result: "done",
      as,
      did,
      ...(code ? { code } : {}),
      step: step.state.step,
      calls: calls.map((c) => c.op),
    };
  }

  function feed(seat: string, input: SeatInput): EngineOutcome {
    const before = mustSeat(seat);
    return apply(seat, before, stepSeat(before, input));
  }

  /** Pending work whose request changed elsewhere (cancelled, picked at the API, logged out) is dropped. */
  function stillValid(seat: string, s: SeatState): boolean {
    if (s.step === "ready") return true;
    if (lookup.user(seat) === null) return false;
    if (s.step === "pick_confirm") return lookup.pickStillThere(s.pick);
    if (s.step === "audit_count") return lookup.audit()?.auditId === s.auditId;
    return lookup.putState(s.put.externalServiceRequestId) === "staged";
  }

  function onChange(): void {
    bins = null;
    if (stepping || recheck) return;
    // coalesced: a burst of changes (e.g. pick creates under load) costs one pass
    recheck = setImmediate(() => {
      recheck = undefined;
      try {
        for (const [seat, s] of states) {
          if (!stillValid(seat, s))
            tell({ kind: "changed" }, apply(seat, s, stepSeat(s, { type: "changed", stillValid: false })));
        }
        refreshLights();
      } catch (err) {
        log.error({ err }, "station lights refresh failed");
      }
    });
  }

  const engine = {
    /** A scan at a seat, as a scanner sends it (`source`: the scanner, for the debounce window). */
    scan(seat: string, barcode: string, source = `api:${seat}`): EngineOutcome {
      mustSeat(seat);
      const input: EngineInput = { kind: "scan", barcode, source };
      const d = debounce(seen, { source, value: barcode, at: deps.now() }, deps.debounceMs);
      seen = d.state;
      if (d.drop) return tell(input, { seat, result: "debounced", calls: [] });
      const meanings = fixedMeaning(barcode) ? [] : lookup.meanings(barcode);
      return tell(input, feed(seat, { type: "scan", barcode, meanings, world: world(seat, meanings) }));
    },

    /** A quantity keyed in at a seat (confirms a pick or put with it; an audit count where kq). */
    keyin(seat: string, quantity: number): EngineOutcome {
      mustSeat(seat);
      return tell(
        { kind: "keyin", quantity },
        feed(seat, { type: "keyin", quantity, world: world(seat, []) }),
      );
    },

    /** A bin's confirm or shortage button, or its beam: to the seat whose work lit it, else the bin itself. */
    press(binId: string, signalOf: "confirm" | "shortage" | "sensor"): EngineOutcome {
      return tell({ kind: "bin", binId, signal: signalOf }, pressBin(binId, signalOf));
    },

    /** Tell `watcher` about every input from now on (until `stop`). */
    watch(watcher: EngineWatcher): void {
      watchers.add(watcher);
    },

    onDevice(e: DeviceEvent): void {
      last = routeDeviceEvent(e, engine, deps);
    },

    /** What the engine made of the last device event (the simulator's answer). */
    last: (): EngineOutcome | null => last,

    /** Every seat's step and pending work (the operator screen). */
    seats: () => [...states].map(([seat, state]) => ({ seat, ...state })),

    start(): void {
      deps.hub.onEvent(OWNER, (e) => engine.onDevice(e));
      for (const ev of ["request", "station", "audit"] as const) deps.bus.on(OWNER, ev, onChange);
      refreshLights();
    },

    stop(): void {
      deps.hub.off(OWNER);
      deps.bus.off(OWNER);
      watchers.clear();
      if (recheck) clearImmediate(recheck);
      recheck = undefined;
      lights.stop();
    },
  };

  /** A bin's button or beam: to the seat whose work lit it, else the bin itself (empty, release). */
  function pressBin(binId: string, signalOf: "confirm" | "shortage" | "sensor"): EngineOutcome {
    const seat = [...states].find(([, s]) => pendingBin(s) === binId)?.[0];
    if (seat) return feed(seat, { type: "bin", binId, signal: signalOf, world: world(seat, []) });
    // The IRT bin takes what an exception removed; the exception was recorded at the seat, so its
    // button or beam is known and changes nothing.
    if (binId === topology.irtBin) return { seat: null, result: "ignored", as: "irt", calls: [] };
    bins ??= lookup.bins();
    const bin = bins.find((b) => b.id === binId);
    const call = signalOf === "confirm" && bin ? binPress(bin) : null;
    if (!call) return { seat: null, result: "ignored", calls: [] };
    try {
      deps.run(topology.seats[0] ?? "", call);
    } catch (err) {
      if (!isAppError(err)) throw err;
      const light = topology.binLight(binId);
      if (light) lights.signal(light);
      return {
        seat: null,
        result: "refused",
        as: "bin",
        reason: err.code,
        message: err.message,
        calls: [],
      };
    }
    bins = null;
    refreshLights();
    return { seat: null, result: "done", as: "bin", did: call.op, calls: [call.op] };
  }
  return engine;
}

export type StationEngine = ReturnType<typeof createStationEngine>;
