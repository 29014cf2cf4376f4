/**
 * The station engine's step for bin full, box full (docs/station.md#bin-full-box-full): the lit pick's
 * bin is closed and its orders go on in new bins (one transaction: operations `binFull`); the lit pick
 * stays lit, into the new bin (seat.bin-full.ts says how). Refused, nothing changed, at any other step,
 * on a paused seat, or when no bin is free (the error signal, as every refusal).
 */
import { isAppError } from "../domain/errors.js";
import type { BinFullOutcome } from "../services/pick/pick.service.js";
import { type LitState, refreshLights, signalSeat } from "./engine.lights.js";
import { type ShiftCore, tellWork } from "./engine.shift.js";
import { type BinFullAsk, binFullAsk, continuedSeats } from "./seat.bin-full.js";
import type { SeatState, SeatStep } from "./seat.types.js";
import type { UndoMemory } from "./seat.undo.js";

/** The engine's answer (engine.ts `Outcome`, which it is assignable to: engine.ts is not imported here). */
export interface BinFullAnswer {
  seat: string;
  result: "done" | "refused" | "ignored";
  as?: string;
  did?: string;
  reason?: string;
  message?: string;
  step?: SeatState["step"];
  calls: string[];
  params?: Record<string, string>;
}

/** The part of the engine's state this step reads and keeps (engine.ts `EngineCore`). */
export interface BinFullCore extends LitState, ShiftCore {
  deps: LitState["deps"] & ShiftCore["deps"] & { operations: { binFull(input: BinFullAsk): BinFullOutcome } };
  stepping: boolean;
  undo: Map<string, UndoMemory>;
}

export function binFullAt<C extends BinFullCore>(
  core: C,
  seat: string,
  /** the seat's pause, when it is paused (engine.ts `pausedRefusal`) */
  paused: SeatStep | null,
  keep: (core: C, seat: string, state: SeatState) => void,
): BinFullAnswer {
  const before = core.states.get(seat) ?? { step: "ready", tote: null };
  const asked = paused && !paused.ok ? paused : binFullAsk(before, seat);
  if (!asked.ok) {
    signalSeat(core, before);
    const { reason, message } = asked;
    return { seat, result: "refused", as: "exception", reason, message, step: before.step, calls: [] };
  }
  if (!("ask" in asked)) return { seat, result: "ignored", calls: [] };
  const { ask } = asked;
  core.stepping = true;
  let done: BinFullOutcome;
  try {
    done = core.deps.operations.binFull(ask);
  } catch (err) {
    if (!isAppError(err)) throw err;
    signalSeat(core, before);
    const { code: reason, message } = err;
    return { seat, result: "refused", as: "exception", reason, message, step: before.step, calls: [] };
  } finally {
    core.stepping = false;
  }
  const changed = continuedSeats(core.states, done, { seat, units: ask.pick?.quantity ?? 0 });
  for (const [s, state] of changed) core.states.set(s, state);
  core.undo.set(seat, { kind: "committed" });
  core.bins = null;
  if (ask.pick) tellWork(core, seat, [{ op: "pick", input: ask.pick }]);
  refreshLights(core);
  // after the lights are sent: keeping the lit work must not hold back the light
  for (const [s, state] of changed) keep(core, s, state);
  const first = done.moves[0];
  const params: Record<string, string> = first
    ? { bin: done.closed, order: first.order, next: first.to }
    : { bin: done.closed };
  const calls = ask.pick ? ["pick", "binFull"] : ["binFull"];
  const step = (core.states.get(seat) ?? before).step;
  return { seat, result: "done", as: "exception", did: "bin_closed_full", step, calls, params };
}
