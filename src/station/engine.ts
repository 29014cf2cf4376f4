/**
 * The station engine (docs/architecture.md#a-scan-end-to-end: device events → service calls → device
 * commands). It reads what the seat machine is told about the station (seat-facts.ts), feeds it one
 * input, makes the operation calls it asks for (each one transaction), keeps the new state only when
 * they all committed, then brings the lights in line (engine.lights.ts). Scans from scanners, from
 * `POST /station/scans` and taps on the operator screen take the same path.
 * The steps below take the engine's state (`EngineCore`) explicitly, so each can be read on its own.
 * Nothing runs before `start()`; `stop()` drops every subscription and timer.
 */
import type { DeviceEvent } from "../devices/hub.types.js";
import { AppError, isAppError } from "../domain/errors.js";
import { SUPERVISOR_BADGE_PREFIX, shownScan } from "../domain/supervisor-credential.js";
import { binPress } from "./bin-lights.js";
import { type DebounceState, debounce, emptyDebounce } from "./debounce.js";
import { routeDeviceEvent } from "./device-input.js";
import { binFullAt } from "./engine.bin-full.js";
import { pressMovedBin, showBinMove } from "./engine.bin-move.js";
import { type LitState, refreshLights, signalBin, signalSeat } from "./engine.lights.js";
import { type PauseCore, pausedRefusal, pauseInputAt } from "./engine.pause.js";
import { keepsWork, type ShiftCore, tellWork, type WorkWatcher } from "./engine.shift.js";
import { noPrompt, type SupervisorBadgeHandler } from "./engine.supervisor.js";
import type { EngineDeps, EngineInput, EngineWatcher, Outcome } from "./engine.types.js";
import { canUndoAt, rememberUndo, type UndoCore, undoAt } from "./engine.undo.js";
import { createLightsShell } from "./lights.shell.js";
import { fixedMeaning } from "./scan-codes.js";
import { capturing } from "./seat.capture.js";
import { pendingBin, stepSeat } from "./seat.machine.js";
import { type ProblemKind, problemStep } from "./seat.problem.js";
import {
  type DataMeaning,
  type OpCall,
  type PickTarget,
  READY,
  type SeatInput,
  type SeatState,
  type SeatStep,
} from "./seat.types.js";
import { captureFacts, readSeatFacts } from "./seat-facts.js";
import type { PauseInput } from "./topology.js";

export type { EngineDeps, EngineInput, EngineWatcher, Outcome } from "./engine.types.js";

/**
 * The engine's state between inputs (the lights' part: engine.lights.ts; the shift's: engine.shift.ts;
 * undo's: engine.undo.ts; the pauses': engine.pause.ts).
 */
interface EngineCore extends LitState, ShiftCore, UndoCore, PauseCore {
  deps: EngineDeps;
  seen: DebounceState;
  /** operation calls in progress: their own bus events need no re-check */
  stepping: boolean;
  recheck: NodeJS.Immediate | undefined;
  watchers: Set<EngineWatcher>;
  /** A supervisor's badge scanned at a seat: to the seat's open prompt (engine.supervisor.ts). */
  supervisorBadge?: SupervisorBadgeHandler;
}

function createCore(deps: EngineDeps): EngineCore {
  return {
    deps,
    states: new Map(deps.topology.seats.map((s) => [s, READY])),
    lights: createLightsShell({ hub: deps.hub, errorSignalMs: deps.errorSignalMs, log: deps.log }),
    seen: emptyDebounce(),
    bins: null,
    litSlots: new Set(),
    stepping: false,
    recheck: undefined,
    watchers: new Set(),
    undo: new Map(),
    workWatchers: new Set(),
    kept: new Set(),
  };
}

function tell(core: EngineCore, input: EngineInput, outcome: Outcome): Outcome {
  for (const w of core.watchers) {
    try {
      w(input, outcome);
    } catch (err) {
      core.deps.log.error({ err }, "station engine watcher failed");
    }
  }
  return outcome;
}

function mustSeat(core: EngineCore, seat: string): SeatState {
  const s = core.states.get(seat);
  if (!s) throw new AppError("not_found", `no seat '${seat}'`, [{ path: "seat", message: "unknown seat" }]);
  return s;
}

const facts = (core: EngineCore, seat: string, meanings: DataMeaning[]) =>
  readSeatFacts(core.deps.lookup, core.states, seat, meanings);

/** Makes one call the seat machine asked for: its input goes to the operation as it is. */
function call(core: EngineCore, c: OpCall) {
  const { operations: ops, audits } = core.deps;
  switch (c.op) {
    case "login":
      return ops.login(c.seat, c.user);
    case "logout":
      return ops.logout(c.seat);
    case "rackPresented":
      return ops.rackPresented(c.input);
    case "pick":
      return ops.pick(c.input);
    case "pickException":
      return ops.pickException(c.input);
    case "put":
      return ops.put(c.input);
    case "putException":
      return ops.putException(c.input);
    case "release":
      return ops.release(c.externalServiceRequestId);
    case "binEmptied":
      return ops.binEmptied(c.binId);
    case "auditCount":
      audits.count(c.auditId, c.input, "scanned");
      return;
  }
}

function refused(seat: string | null, before: SeatState | null, as: string | undefined, err: AppError) {
  return {
    seat,
    result: "refused" as const,
    ...(as ? { as } : {}),
    reason: err.code,
    message: err.message,
    ...(before ? { step: before.step } : {}),
    calls: [],
  };
}

function keepSeat(core: EngineCore, seat: string, state: SeatState): void {
  try {
    core.deps.onSeatState?.(seat, state);
  } catch (err) {
    core.deps.log.error({ err, seat }, "keeping the seat's lit work failed");
  }
}

/** Makes the step's calls (each one transaction); keeps its state only when all of them committed. */
function apply(core: EngineCore, seat: string, before: SeatState, step: SeatStep, undoable = false): Outcome {
  if (!step.ok) {
    signalSeat(core, before);
    const { reason, message } = step;
    return {
      seat,
      result: "refused",
      reason,
      message,
      step: before.step,
      calls: [],
      ...(step.as ? { as: step.as } : {}),
    };
  }
  const { calls } = step;
  core.stepping = true;
  try {
    for (const c of calls) call(core, c);
  } catch (err) {
    if (!isAppError(err)) throw err;
    signalSeat(core, before);
    return refused(seat, before, step.resolved.as, err);
  } finally {
    core.stepping = false;
  }
  core.states.set(seat, step.state);
  rememberUndo(core, seat, before, step, undoable);
  if (calls.length) {
    core.bins = null;
    tellWork(core, seat, calls);
  }
  refreshLights(core);
  // after the lights are sent: keeping the lit work must not hold back the light
  keepSeat(core, seat, step.state);
  const { as, did, code } = step.resolved;
  const ops = calls.map((c) => c.op);
  return { seat, result: "done", as, did, ...(code ? { code } : {}), step: step.state.step, calls: ops };
}

function feed(core: EngineCore, seat: string, input: SeatInput): Outcome {
  const before = mustSeat(core, seat);
  core.binMoves?.delete(seat); // its next input ends a bin move it was shown (engine.bin-move.ts)
  // an operator's scan or key-in may be taken back; a button, a beam or a dropped work may not
  return apply(
    core,
    seat,
    before,
    pausedRefusal(core, seat) ?? stepSeat(before, input),
    input.type === "scan" || input.type === "keyin",
  );
}

/** Takes the seat's last scan or key-in back (engine.undo.ts). */
const undoHere = (core: EngineCore, seat: string): Outcome =>
  undoAt(core, seat, mustSeat(core, seat), (s) => stillValid(core, seat, s));

/** A bin's button or beam: to the seat whose work lit it, else the bin itself (empty, release). */
function pressBin(core: EngineCore, binId: string, signalOf: "confirm" | "shortage" | "sensor"): Outcome {
  const { topology, lookup } = core.deps;
  const seat = [...core.states].find(([, s]) => pendingBin(s) === binId)?.[0];
  if (seat) return feed(core, seat, { type: "bin", binId, signal: signalOf, facts: facts(core, seat, []) });
  const moved = signalOf === "confirm" ? pressMovedBin(core, binId) : null;
  if (moved) return moved;
  // The IRT bin takes what an exception removed; the exception was recorded at the seat, so its
  // button or beam is known and changes nothing.
  if (binId === topology.irtBin) return { seat: null, result: "ignored", as: "irt", calls: [] };
  core.bins ??= lookup.bins();
  const bin = core.bins.find((b) => b.id === binId);
  const press = signalOf === "confirm" && bin ? binPress(bin) : null;
  if (!press && signalOf === "confirm" && bin) {
    // a button no seat's work lit, on a bin with nothing to take away: the error signal, and why
    signalBin(core, binId);
    return {
      seat: null,
      result: "refused",
      as: "bin",
      reason: "bin_not_lit",
      message: `bin ${binId} is not lit`,
      calls: [],
    };
  }
  if (!press) return { seat: null, result: "ignored", calls: [] };
  try {
    call(core, press);
  } catch (err) {
    if (!isAppError(err)) throw err;
    signalBin(core, binId);
    return refused(null, null, "bin", err);
  }
  core.bins = null;
  refreshLights(core);
  return { seat: null, result: "done", as: "bin", did: press.op, calls: [press.op] };
}

/** Pending work whose request changed elsewhere (cancelled, picked at the API, logged out) is dropped. */
function stillValid(core: EngineCore, seat: string, s: SeatState): boolean {
  const { lookup } = core.deps;
  if (s.step === "ready") return true;
  if (!keepsWork(core, seat, lookup.user(seat))) return false;
  if (s.step === "pick_confirm") return lookup.pickStillThere(s.pick);
  if (s.step === "audit_count") return lookup.audit()?.auditId === s.auditId;
  return lookup.putState(s.put.externalServiceRequestId) === "staged";
}

/** A committed change elsewhere: re-check the seats' pending work and the lights, once per burst. */
function onChange(core: EngineCore): void {
  core.bins = null;
  if (core.stepping || core.recheck) return;
  // coalesced: a burst of changes (e.g. pick creates under load) costs one pass
  core.recheck = setImmediate(() => {
    core.recheck = undefined;
    try {
      for (const [seat, s] of core.states) {
        if (!stillValid(core, seat, s))
          tell(
            core,
            { kind: "changed" },
            apply(core, seat, s, stepSeat(s, { type: "changed", stillValid: false })),
          );
      }
      refreshLights(core);
    } catch (err) {
      core.deps.log.error({ err }, "station lights refresh failed");
    }
  });
}

const OWNER = "station-engine";

export function createStationEngine(deps: EngineDeps) {
  const core = createCore(deps);
  let last: Outcome | null = null;

  /** scan → light (docs/architecture.md#performance-targets), measured only for scans that lit. */
  function timeLight(started: number, sentBefore: number): void {
    const report = deps.onScanLit;
    if (!report || core.lights.sent() === sentBefore) return;
    core.lights.written().then((ok) => {
      if (ok) report((performance.now() - started) / 1000);
    });
  }

  function scanAt(seat: string, barcode: string, source: string): Outcome {
    mustSeat(core, seat);
    // a supervisor's badge is told (shown, logged) without its secret
    const input: EngineInput = { kind: "scan", barcode: shownScan(barcode), source };
    const d = debounce(core.seen, { source, value: barcode, at: deps.now() }, deps.debounceMs);
    core.seen = d.state;
    if (d.drop) return tell(core, input, { seat, result: "debounced", calls: [] });
    if (barcode.startsWith(SUPERVISOR_BADGE_PREFIX))
      return core.supervisorBadge?.(seat, barcode, source) ?? tell(core, input, noPrompt(seat));
    const fixed = fixedMeaning(barcode);
    if (fixed?.kind === "exception" && fixed.code === "UNDO")
      return tell(core, { kind: "undo", source }, undoHere(core, seat));
    if (fixed?.kind === "exception" && (fixed.code === "BIN_FULL" || fixed.code === "BOX_FULL"))
      return tell(core, input, binFullAt(core, seat, pausedRefusal(core, seat), keepSeat));
    const meanings = fixed ? [] : deps.lookup.meanings(barcode);
    const at = { now: deps.now(), timeZone: deps.timeZone ?? "UTC" };
    const captured = captureFacts(deps.lookup, mustSeat(core, seat), { barcode, meanings }, at);
    const scan = {
      type: "scan" as const,
      barcode,
      meanings,
      facts: { ...facts(core, seat, meanings), ...captured },
    };
    return tell(core, input, feed(core, seat, scan));
  }

  const engine = {
    /** A scan at a seat, as a scanner sends it (`source`: the scanner, for the debounce window). */
    scan(seat: string, barcode: string, source = `api:${seat}`): Outcome {
      const started = performance.now();
      const sentBefore = core.lights.sent();
      const out = scanAt(seat, barcode, source);
      timeLight(started, sentBefore);
      return out;
    },

    /**
     * A serial number, lot or expiry date typed at the seat because its label cannot be scanned
     * (docs/capture.md#at-the-seat): taken as a scan, only while the seat's lit pick waits for one.
     */
    captureTyped(seat: string, text: string): Outcome {
      if (!capturing(mustSeat(core, seat)))
        return tell(
          core,
          { kind: "scan", barcode: text, source: `typed:${seat}` },
          { seat, result: "refused", reason: "not_this_step", message: "no value to capture now", calls: [] },
        );
      return scanAt(seat, text, `typed:${seat}`);
    },

    /** A quantity keyed in at a seat (confirms a pick or put with it; an audit count where kq). */
    keyin(seat: string, quantity: number): Outcome {
      mustSeat(core, seat);
      const keyin = { type: "keyin" as const, quantity, facts: facts(core, seat, []) };
      return tell(core, { kind: "keyin", quantity }, feed(core, seat, keyin));
    },

    /** A bin's confirm or shortage button, or its beam: to the seat whose work lit it, else the bin itself. */
    press(binId: string, signalOf: "confirm" | "shortage" | "sensor"): Outcome {
      return tell(core, { kind: "bin", binId, signal: signalOf }, pressBin(core, binId, signalOf));
    },

    /**
     * A problem reported with its quantity at a seat (seat.problem.ts): at the lit work, or before a
     * scan at `next`, the line the seat's screen shows next.
     */
    problem(seat: string, kind: ProblemKind, quantity: number, next: PickTarget | null): Outcome {
      const before = mustSeat(core, seat);
      const mode = deps.lookup.mode();
      const step = pausedRefusal(core, seat) ?? problemStep(before, { kind, quantity, mode, seat, next });
      return tell(core, { kind: "problem", problem: kind, quantity }, apply(core, seat, before, step));
    },

    /** Takes the seat's last scan back (a tap; `EXC-UNDO` comes as a scan); `canUndo`: whether it can now. */
    undo: (seat: string, source = `api:${seat}`): Outcome =>
      tell(core, { kind: "undo", source }, undoHere(core, seat)),
    canUndo: (seat: string): boolean => canUndoAt(core, seat, mustSeat(core, seat)),
    /**
     * A pause input's level (an e-stop, a light curtain): kept for the seats it holds, whose work's
     * lights then show the pause (docs/station.md#pausing-a-seat).
     */
    pauseInput: (input: PauseInput, active: boolean): Outcome => pauseInputAt(core, input, active),

    /** Where a supervisor's badge scanned at a seat goes (the operator screen's supervisor prompt). */
    onSupervisorBadge(handler: SupervisorBadgeHandler | undefined): void {
      core.supervisorBadge = handler;
    },

    /** Tell `watcher` about every input from now on (until `stop`). */
    watch(watcher: EngineWatcher): void {
      core.watchers.add(watcher);
    },

    /** A unit of the seat's confirmed pick to move from bin `from` to `to`, lit (engine.bin-move.ts). */
    showBinMove: (seat: string, from: string, to: string) => showBinMove(core, seat, from, to),
    /** Tell `watcher` about the operation calls of every input from now on (until `stop`). */
    watchWork: (watcher: WorkWatcher): void => void core.workWatchers.add(watcher),

    /** Signs the seat's operator out for idling: the pending work (a lit line) stays for the next one. */
    signOut(seat: string): void {
      if (mustSeat(core, seat).step !== "ready") core.kept.add(seat);
      deps.operations.logout(seat);
    },

    onDevice(e: DeviceEvent): void {
      last = routeDeviceEvent(e, engine, deps);
    },

    /** What the engine made of the last device event (the simulator's answer). */
    last: (): Outcome | null => last,

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
      core.workWatchers.clear();
      core.supervisorBadge = undefined;
      if (core.recheck) clearImmediate(core.recheck);
      core.recheck = undefined;
      core.lights.stop();
    },
  };
  return engine;
}

export type StationEngine = ReturnType<typeof createStationEngine>;
