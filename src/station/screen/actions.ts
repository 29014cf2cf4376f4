/**
 * What a tap on the operator screen does (docs/station.md#operator-screen): every tap goes through
 * the station engine exactly like a scan or a button, so a tap and a scan are interchangeable:
 * - confirm: the lit bin's confirm button (or EXC-CONFIRM when the seat's work lights no bin: an audit
 *   slot is closed with it); an exception or cancel: scanning its command barcode (scan-codes.ts);
 * - key-in: the engine's key-in; login / logout: the badge (`BADGE-<operator>`) at the seat;
 * - mode, bin emptied, tote released, reprint: the station operations, recorded as the seat's last event;
 * - scan (the code typed at the seat, or its simulated scanner's scan): a scan at the seat;
 * - problem: a problem with its quantity (seat.problem.ts), validated against the seat's screen state;
 * - skip_label: the bin's orders released without a label (print_ready), logged with who skipped;
 * - supervisor: a supervisor called (logged as an operations event, shown as the last event).
 * Every action may carry the `version` of the screen it was tapped on: an older one than the seat's
 * is refused (`stale_screen`) and nothing is done (the stale-tap rule, docs/decisions.md).
 */
import { AppError, isAppError } from "../../domain/errors.js";
import type { Operation } from "../../domain/permissions.js";
import type { Outcome } from "../engine.js";
import { BADGE_PREFIX, EXCEPTION_PREFIX, type ExceptionCode } from "../scan-codes.js";
import { pendingBin } from "../seat.machine.js";
import type { ProblemKind } from "../seat.problem.js";
import type { PickTarget, SeatState, StationMode } from "../seat.types.js";
import { type CorrectionAction, type CorrectionDeps, correctionTap } from "./correction-actions.js";
import { reprint, skipLabel } from "./label-actions.js";
import {
  NO_SEAT_CONTROL,
  pausedTap,
  type SeatControlAction,
  type SeatControlTaps,
  seatControlTap,
} from "./seat-control-actions.js";
import type { Lang, Problem } from "./state/types.js";

export { type PrintResult, REPRINT_WAIT_MS } from "./label-actions.js";

type Versioned = { version?: number | undefined };

export type ScreenAction = (
  | { type: "login"; user: string }
  | { type: "logout" }
  | { type: "confirm" }
  | { type: "cancel" }
  | { type: "exception"; code: ExceptionCode }
  | { type: "keyin"; quantity: number }
  | { type: "mode"; mode: StationMode }
  | { type: "empty"; bin: string }
  | { type: "release"; bin: string }
  | { type: "reprint"; bin: string }
  | { type: "language"; lang: Lang | null }
  | { type: "scan"; barcode: string }
  | { type: "problem"; kind: ProblemKind; quantity?: number | undefined; confirmed: true }
  | { type: "skip_label"; bin: string }
  | { type: "supervisor"; bin?: string | undefined }
  // a serial number, lot or expiry date typed when its label cannot be scanned (docs/capture.md#at-the-seat)
  | { type: "capture"; value: string }
  // a seat that runs a whole shift: the last scan taken back; a queued audit begun at the seat
  | { type: "undo" }
  | { type: "audit_begin" }
  | SeatControlAction
  | { type: "acknowledge_restart" }
  // training from the screen (docs/station.md#training): enter or leave it, start it over
  | { type: "training"; training: boolean }
  | { type: "training_reset" }
  // the seat's supervisor prompt opened for a tap (or closed: null); a badge on the seat's scanner authorises it
  | { type: "supervisor_prompt"; pending: ScreenAction | null; seen?: number | undefined }
  // a unit put wrong after a confirm, corrected by a supervisor at the seat (docs/station.md#undo)
  | CorrectionAction
) &
  Versioned;

/**
 * The operation each tap performs (domain/permissions.ts): a tap is allowed to whoever may perform it
 * through its HTTP route, so the screen is no way around a role (a mode switch stays an admin's).
 */
export const SCREEN_ACTION_OPERATION: Readonly<Record<ScreenAction["type"], Operation>> = {
  login: "seat_login",
  logout: "seat_logout",
  confirm: "seat_input",
  cancel: "seat_input",
  exception: "seat_input",
  keyin: "seat_input",
  scan: "seat_input",
  problem: "seat_input",
  mode: "set_mode",
  empty: "empty_bin",
  release: "release_put",
  reprint: "reprint_label",
  language: "set_language",
  skip_label: "skip_label",
  supervisor: "call_supervisor",
  capture: "seat_input",
  undo: "seat_input",
  audit_begin: "audit_begin",
  // a supervisor pauses and resumes the seat (admins); the operator acknowledges a message
  pause: "supervise_seat",
  resume: "supervise_seat",
  acknowledge: "acknowledge_message",
  acknowledge_restart: "seat_input",
  // a supervisor puts the seat in or out of training, or starts it over (as the admin's HTTP routes)
  training: "set_training",
  training_reset: "reset_training",
  // asking a supervisor to authorise a tap performs nothing yet: the authorised tap is held to its own operation
  supervisor_prompt: "call_supervisor",
  // a put's units moved to their real slot is a stock correction; a unit in the wrong bin, a supervisor's
  correct_put: "correct_stock",
  wrong_bin: "correct_pick_bin",
};

export interface ScreenActionDeps {
  engine: {
    scan(seat: string, barcode: string, source: string): Outcome;
    keyin(seat: string, quantity: number): Outcome;
    problem(seat: string, kind: ProblemKind, quantity: number, next: PickTarget | null): Outcome;
    press(binId: string, signal: "confirm"): Outcome;
    seats(): Array<{ seat: string } & SeatState>;
    last(): Outcome | null;
    captureTyped(seat: string, text: string): Outcome;
    undo(seat: string, source: string): Outcome;
  };
  /** The audit queued for the station and its begin at a seat (docs/station.md#an-audit-begun-at-the-seat). */
  audits?: { queued(): string | null; begin(auditId: string, seat: string): unknown };
  ops: {
    setMode(mode: StationMode): void;
    binEmptied(binId: string): void;
    release(externalServiceRequestId: string): unknown;
    printReady(externalServiceRequestId: string): void;
  };
  /** The seat's screen now: its version, the problems it offers and the line it shows next. */
  screen(seat: string): { version: number; problems: Problem[]; next: PickTarget | null };
  /** The orders in a bin that wait for their label. */
  waitingLabel(binId: string): string[];
  /** Forgets why these orders' labels failed (they left without one). */
  forgetLabels(ids: readonly string[]): void;
  /** An operations event (a label skipped, a supervisor called), logged. */
  note(event: string, fields: Record<string, unknown>): void;
  /** The put of a complete tote in a bin (to release), or null. */
  completePut(binId: string): string | null;
  /**
   * Prints the bin's shipping labels again and answers whether they printed; null when the agent does
   * not print (printing.mode external).
   */
  reprint: ((binId: string) => Promise<boolean>) | null;
  reprintWaitMs?: number;
  /** Lets a bin go whose closed box waits for its label (docs/station.md#bin-full-box-full). */
  skipBox?: (binId: string) => boolean;
  user(seat: string): string | null;
  setOperatorLang(operator: string, lang: Lang | null): void;
  /**
   * A scan typed or tapped at the seat: on its simulated scanner, else straight to the engine (its
   * outcome), whether the seat's real scanner is down or not (a label it cannot read is typed).
   */
  simulatedScan: (seat: string, barcode: string) => Outcome | undefined;
  /** Forgets what a restart did to the seat's lit work, once read; whether there was anything. */
  acknowledge?: (seat: string) => boolean;
  /** Records a station operation's outcome as the seat's last event and pushes the screen. */
  record(seat: string, input: { kind: "tap"; text: string; action?: string }, outcome: Outcome): void;
  /** The seat's supervisor prompt opened or closed (supervisor-scan.ts); none: not taken. */
  prompt?: (seat: string, tap: ScreenAction | null, caller: string | null, seen?: number) => Outcome;
  /** Pauses, resumes and messages (services/seat-control); none: those taps are not available. */
  control?: SeatControlTaps;
  /** A unit put wrong after a confirm (correction-actions.ts); none: those taps are not available. */
  corrections?: CorrectionDeps;
}

const refusal = (seat: string, reason: string, message: string): Outcome => ({
  seat,
  result: "refused",
  reason,
  message,
});

/** The stale-tap rule: a tap made on an older screen than the seat's is not carried out. */
function fresh(deps: ScreenActionDeps, seat: string, version: number | undefined): void {
  if (version === undefined) return;
  const current = deps.screen(seat).version;
  if (version < current)
    throw new AppError(
      "stale_screen",
      "the screen changed since this was tapped: look again",
      [{ path: "version", message: `is ${version}, the screen is at ${current}` }],
      { seat, version: current },
    );
}

function problem(
  deps: ScreenActionDeps,
  seat: string,
  a: Extract<ScreenAction, { type: "problem" }>,
): Outcome {
  if (a.confirmed !== true)
    throw new AppError("validation_failed", "a problem is reported only once confirmed", [
      { path: "confirmed", message: "must be true" },
    ]);
  const screen = deps.screen(seat);
  const open = screen.problems.find((p) => p.kind === a.kind);
  if (!open) return refusal(seat, "exception_not_applicable", `no ${a.kind} problem can be reported now`);
  const quantity = a.quantity ?? open.default;
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > open.max)
    throw new AppError("validation_failed", `the quantity must be 1 to ${open.max}`, [
      { path: "quantity", message: `must be 1 to ${open.max}` },
    ]);
  return deps.engine.problem(seat, a.kind, quantity, screen.next);
}

export function createScreenActions(deps: ScreenActionDeps) {
  const { engine } = deps;
  const source = (seat: string) => `screen:${seat}`;

  /** A station operation (not an engine input): its outcome becomes the seat's last event. */
  function operation(seat: string, text: string, did: string, run: () => void): Outcome {
    let out: Outcome;
    try {
      run();
      out = { seat, result: "done", did };
    } catch (err) {
      if (!isAppError(err)) throw err;
      out = refusal(seat, err.code, err.message);
    }
    deps.record(seat, { kind: "tap", text, action: did }, out);
    return out;
  }

  function confirm(seat: string): Outcome {
    const mine = engine.seats().find((s) => s.seat === seat);
    const bin = mine ? pendingBin(mine) : null;
    return bin !== null
      ? engine.press(bin, "confirm")
      : engine.scan(seat, `${EXCEPTION_PREFIX}CONFIRM`, source(seat));
  }

  function logout(seat: string): Outcome {
    const user = deps.user(seat);
    if (user === null) return refusal(seat, "not_logged_in", `no operator is logged in at seat ${seat}`);
    return engine.scan(seat, `${BADGE_PREFIX}${user}`, source(seat));
  }

  function language(seat: string, lang: Lang | null): Outcome {
    const user = deps.user(seat);
    if (user === null) return refusal(seat, "not_logged_in", `no operator is logged in at seat ${seat}`);
    return operation(seat, lang ?? "station", "language_set", () => deps.setOperatorLang(user, lang));
  }

  function scan(seat: string, barcode: string): Outcome {
    return deps.simulatedScan(seat, barcode) ?? engine.last() ?? { seat, result: "ignored" };
  }

  function beginAudit(seat: string): Outcome {
    const id = deps.audits?.queued() ?? null;
    return operation(seat, id ?? "", "audit_begun", () => {
      if (id === null || !deps.audits)
        throw new AppError("invalid_state", "no audit is queued for the station");
      if (deps.user(seat) === null)
        throw new AppError("not_logged_in", `no operator is logged in at seat ${seat}`);
      deps.audits.begin(id, seat);
    });
  }

  const control = { control: deps.control ?? NO_SEAT_CONTROL, user: deps.user, record: deps.record };

  /** `by`: the user signed in on the screen, if any (who paused or resumed the seat). */
  function run(seat: string, a: ScreenAction, by: string | null = null): Outcome | Promise<Outcome> {
    // the prompt's own tap changes nothing: the tap it holds is checked when a badge authorises it
    if (a.type === "supervisor_prompt")
      return (
        deps.prompt?.(seat, a.pending, by, a.seen) ??
        refusal(seat, "not_this_step", "no supervisor prompt here")
      );
    fresh(deps, seat, a.version);
    const paused = pausedTap(control, seat, a.type);
    if (paused) return paused;
    switch (a.type) {
      case "pause":
      case "resume":
      case "acknowledge":
        return seatControlTap(control, seat, a, by);
      case "reprint":
        return reprint(deps, operation, seat, a.bin);
      case "problem":
        return problem(deps, seat, a);
      case "skip_label":
        return skipLabel(deps, operation, seat, a.bin);
      case "correct_put":
      case "wrong_bin":
        return deps.corrections
          ? correctionTap(deps.corrections, seat, a, by)
          : refusal(seat, "not_this_step", `${a.type} is not taken here`);
      case "supervisor":
        return operation(seat, a.bin ?? "", "supervisor_called", () =>
          deps.note("supervisor_called", { seat, operator: deps.user(seat), bin: a.bin ?? null }),
        );
      default:
        return runSync(seat, a);
    }
  }

  return { run };

  function runSync(seat: string, a: ScreenAction): Outcome {
    switch (a.type) {
      case "login":
        return engine.scan(seat, `${BADGE_PREFIX}${a.user}`, source(seat));
      case "logout":
        return logout(seat);
      case "confirm":
        return confirm(seat);
      case "cancel":
        return engine.scan(seat, `${EXCEPTION_PREFIX}CANCEL`, source(seat));
      case "exception":
        return engine.scan(seat, `${EXCEPTION_PREFIX}${a.code}`, source(seat));
      case "keyin":
        return engine.keyin(seat, a.quantity);
      case "mode":
        return operation(seat, a.mode, "mode_set", () => deps.ops.setMode(a.mode));
      case "empty":
        return operation(seat, a.bin, "binEmptied", () => deps.ops.binEmptied(a.bin));
      case "release":
        return operation(seat, a.bin, "release", () => {
          const put = deps.completePut(a.bin);
          if (put === null) throw new AppError("invalid_state", `bin ${a.bin} holds no complete tote`);
          deps.ops.release(put);
        });
      case "language":
        return language(seat, a.lang);
      case "scan":
        return scan(seat, a.barcode);
      case "capture":
        return engine.captureTyped(seat, a.value);
      case "undo":
        return engine.undo(seat, source(seat));
      case "audit_begin":
        return beginAudit(seat);
      case "acknowledge_restart":
        return operation(seat, "restart", "restart_acknowledged", () => {
          if (!deps.acknowledge?.(seat))
            throw new AppError("invalid_state", `no restart to acknowledge at seat ${seat}`);
        });
      default:
        return refusal(seat, "not_this_step", `${a.type} is not taken here`);
    }
  }
}

export type ScreenActions = ReturnType<typeof createScreenActions>;
