/**
 * The screen state of one seat as a pure function of the station (docs/station.md#operator-screen): the seat
 * machine's state, the bins and their lights, the work at the station, the devices, the operator and
 * the last event. The bins grid uses the lights' own derivation (bin-lights.ts), so the screen and
 * the physical lights cannot disagree. What is allowed follows the seat machine's rules: a button is
 * shown only where its input would be taken.
 */
import { binLight, heldBySeats } from "../../bin-lights.js";
import { EXCEPTION_CODES, type ExceptionCode, putReason } from "../../scan-codes.js";
import { pendingBin } from "../../seat.machine.js";
import { scanEach } from "../../seat.pick.js";
import { READY, type SeatState, type StationMode } from "../../seat.types.js";
import { INSTEAD_KEYS, REFUSAL_KEYS } from "../messages/messages.js";
import { awaitingCapture, captureInstruction, captureKeyin, captureOf } from "./capture.js";
import { correctionOf } from "./correction.js";
import {
  alertOf,
  cardOf,
  keyinOf,
  manualEntryOf,
  noticesOf,
  outcomeOf,
  problemsOf,
  signalOf,
  soundOf,
} from "./operator.js";
import { restartOf } from "./restart.js";
import { messageOf, pausedAllowed, pauseOf, withPausedLights } from "./seat-control.js";
import { seatWork } from "./seat-work.js";
import { shiftOf } from "./shift.js";
import { stationNoticesOf } from "./station-notices.js";
import { auditTask, pickTask, putTask } from "./task.js";
import type { Allowed, BinAction, BinTile, Instruction, Msg, ScreenInput, ScreenState } from "./types.js";
import { unscannableOf } from "./unscannable.js";

const MODES: StationMode[] = ["pick", "put", "audit"];
const PICK_EXCEPTIONS: ExceptionCode[] = ["ITEM_MISSING", "PHYSICALLY_DAMAGED", "UNSCANNABLE"];
const AUDIT_EXCEPTIONS: ExceptionCode[] = ["PHYSICALLY_DAMAGED", "UNSCANNABLE"];

const say = (key: Instruction, params?: Msg["params"]): Msg =>
  params ? { key: `instruction.${key}`, params } : { key: `instruction.${key}` };

function binTiles(input: ScreenInput, state: SeatState): BinTile[] {
  const held = heldBySeats(input.seats.values());
  const mine = pendingBin(state);
  const ready = input.operator !== null && state.step === "ready";
  return input.bins.map((b) => {
    const actions: BinAction[] = [];
    if (ready && b.state === "complete" && b.printState !== "waiting") actions.push("empty");
    if (ready && b.completePut) actions.push("release");
    if (input.operator !== null && input.stationPrinting && b.printState === "waiting")
      actions.push("reprint");
    const orders = input.orders[b.id] ?? [];
    return {
      id: b.id,
      state: b.state,
      light: binLight(b, held.bins.get(b.id)),
      orders,
      printState: b.printState,
      printError: input.printErrors[b.id] ?? null,
      mine: mine === b.id,
      actions,
      signal: signalOf(input, b.id),
      outcome: outcomeOf(b.state, b.completePut !== null, orders),
    };
  });
}

function pickInstruction(input: ScreenInput, state: SeatState): Msg {
  const capturing = captureInstruction(input, state);
  if (capturing) return capturing;
  if (state.step === "pick_confirm") {
    const p = state.pick;
    const sku = input.pickLines.find((r) => r.order === p.externalServiceRequestId && r.line === p.line)?.sku;
    const params = { quantity: p.quantity, sku: sku ?? "", bin: p.binId, slot: p.location };
    return scanEach(p)
      ? say("scan_each_into_bin", { ...params, scanned: state.scanned ?? 0 })
      : say("put_into_bin", params);
  }
  const next = input.pickLines[0];
  if (next) return say("scan_item_from_slot", { slot: next.slot, sku: next.sku, quantity: next.quantity });
  const full = input.bins.find((b) => b.state === "complete");
  if (full) return say(full.printState === "waiting" ? "waiting_label" : "empty_bin", { bin: full.id });
  return say(input.pickWaiting ? "waiting_rack" : "no_work");
}

function putInstruction(input: ScreenInput, state: SeatState): Msg {
  if (state.step === "put_slot")
    return say("scan_slot_for_put", { quantity: state.quantity, sku: state.put.sku });
  if (state.step === "put_confirm")
    return say("put_into_slot", {
      quantity: state.quantity,
      sku: state.put.sku,
      slot: state.location,
      bin: state.put.binId ?? "",
    });
  const done = input.bins.find((b) => b.completePut);
  if (done) return say("release_tote", { bin: done.id });
  // a selected tote counts while its put is staged (a released one is gone from the station)
  const selected =
    state.step === "ready"
      ? input.puts.find((p) => p.putId === state.tote && p.state === "staged")
      : undefined;
  if (selected) return say("scan_item_from_tote", { tote: selected.tote ?? selected.putId });
  return say(input.puts.some((p) => p.state === "staged") ? "scan_tote_or_item" : "no_work");
}

function auditInstruction(input: ScreenInput, state: SeatState): Msg {
  if (state.step === "audit_count") return say("count_slot", { slot: state.location });
  const open = input.audit?.lines.find((l) => l.open);
  if (!open && input.audit == null && input.queuedAudit)
    return say("begin_audit", { audit: input.queuedAudit });
  return open ? say("scan_slot_to_count", { slot: open.location }) : say("no_audit");
}

export function instructionOf(input: ScreenInput, state: SeatState): Msg {
  if (input.operator === null) return say("login");
  if (input.mode === "pick") return pickInstruction(input, state);
  if (input.mode === "put") return putInstruction(input, state);
  return auditInstruction(input, state);
}

/** Bin full, or box full where the lit pick is a pick+pack order's (docs/station.md#bin-full-box-full). */
function fullOf(input: ScreenInput, p: { externalServiceRequestId: string }): ExceptionCode {
  return input.pickLines.some((r) => r.order === p.externalServiceRequestId && r.pack)
    ? "BOX_FULL"
    : "BIN_FULL";
}

function exceptionsOf(state: SeatState, input: ScreenInput): ExceptionCode[] {
  const { seat } = input;
  // bin full, box full: asked once more like every pick exception
  if (state.step === "pick_confirm") return [...PICK_EXCEPTIONS, fullOf(input, state.pick)];
  if (state.step === "audit_count") return AUDIT_EXCEPTIONS;
  if (state.step === "put_slot" || state.step === "put_confirm")
    return EXCEPTION_CODES.filter((c) => c !== "CANCEL" && c !== "CONFIRM" && putReason(c, seat) !== null);
  return [];
}

function keyinAllowed(state: SeatState, input: ScreenInput): boolean {
  switch (state.step) {
    case "pick_confirm":
      return !scanEach(state.pick) && !awaitingCapture(state);
    case "put_slot":
    case "put_confirm":
      return !scanEach(state.put);
    case "audit_count":
      return input.audit?.kq === true && state.last !== null && !state.lastScanRequired;
    default:
      return false;
  }
}

export function allowedOf(input: ScreenInput, state: SeatState): Allowed {
  const on = input.operator !== null;
  const ready = state.step === "ready";
  return {
    scan: on ? "any" : "badge",
    login: !on,
    logout: on && ready,
    confirm:
      on &&
      ((state.step === "pick_confirm" && !scanEach(state.pick) && !awaitingCapture(state)) ||
        state.step === "put_confirm"),
    closeSlot: on && state.step === "audit_count",
    keyin: on && keyinAllowed(state, input),
    cancel: on && (!ready || state.tote !== null),
    exceptions: on ? exceptionsOf(state, input) : [],
    modes: on && ready ? MODES.filter((m) => m !== input.mode) : [],
    language: on,
  };
}

/** The state less its version (the publisher numbers it: version.ts). */
export function deriveScreen(all: ScreenInput): Omit<ScreenState, "version"> {
  const input = seatWork(all);
  const state = input.seats.get(input.seat) ?? READY;
  const task =
    input.operator === null
      ? null
      : input.mode === "pick"
        ? pickTask(input, state)
        : input.mode === "put"
          ? putTask(input, state)
          : auditTask(input, state);
  const pause = pauseOf(input);
  const bins = withPausedLights(binTiles(input, state), input);
  const allowed = pause ? pausedAllowed(allowedOf(input, state)) : allowedOf(input, state);
  const notices = [...noticesOf(input), ...stationNoticesOf(input)];
  return {
    site: input.site,
    ppsId: input.ppsId,
    seat: input.seat,
    lang: input.lang,
    mode: input.mode,
    operator: input.operator,
    step: state.step,
    devices: input.devices.map((d) => ({
      id: d.id,
      kind: d.kind,
      connected: d.connected,
      lastError: d.lastError,
    })),
    simulatedScanner: input.simulatedScanner,
    instruction: pause ? say("seat_paused") : instructionOf(input, state),
    task,
    bins,
    lastEvent: input.lastEvent,
    allowed,
    operators: input.operator === null ? input.operators : [],
    alert: alertOf(input, REFUSAL_KEYS, INSTEAD_KEYS),
    card: cardOf(input, state, bins),
    problems: pause ? [] : problemsOf(input, state),
    notices,
    manualEntry: manualEntryOf(notices),
    keyin: captureKeyin(state, keyinOf(input, state, allowed.keyin)),
    sound: soundOf(input.lastEvent, bins),
    capture: captureOf(input, state),
    training: input.training === true,
    ...withCorrection(input, shiftOf(input, task)),
    pause,
    message: messageOf(input),
    unscannable: unscannableOf(input, state),
    restart: restartOf(input),
    productivity: input.operator === null ? null : (input.productivity ?? null),
    idle: input.idle ?? null,
  };
}

/** The shift's members with what a supervisor may correct after the confirm it speaks of (docs/station.md#undo). */
function withCorrection<T extends { afterConfirm: Msg | null }>(input: ScreenInput, shift: T) {
  return { ...shift, correction: correctionOf(input, shift.afterConfirm) };
}
