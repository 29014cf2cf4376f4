/**
 * What a tap on the operator screen does (docs/station.md#operator-screen): every tap goes through
 * the station engine exactly like a scan or a button, so a tap and a scan are interchangeable:
 * - confirm: the lit bin's confirm button (or EXC-CONFIRM when the seat's work lights no bin: an audit
 *   slot is closed with it); an exception or cancel: scanning its command barcode (scan-codes.ts);
 * - key-in: the engine's key-in; login / logout: the badge (`BADGE-<operator>`) at the seat;
 * - mode, bin emptied, tote released, reprint: the station operations, recorded as the seat's last event;
 * - scan (only where the seat's scanner is simulated): a scan on that simulated scanner.
 */
import { AppError, isAppError } from "../../domain/errors.js";
import type { Outcome } from "../engine.js";
import { BADGE_PREFIX, EXCEPTION_PREFIX, type ExceptionCode } from "../scan-codes.js";
import { pendingBin } from "../seat.machine.js";
import type { SeatState, StationMode } from "../seat.types.js";
import type { Lang } from "./state/types.js";

export type ScreenAction =
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
  | { type: "scan"; barcode: string };

export interface ScreenActionDeps {
  engine: {
    scan(seat: string, barcode: string, source: string): Outcome;
    keyin(seat: string, quantity: number): Outcome;
    press(binId: string, signal: "confirm"): Outcome;
    seats(): Array<{ seat: string } & SeatState>;
    last(): Outcome | null;
  };
  ops: {
    setMode(mode: StationMode): void;
    binEmptied(binId: string): void;
    release(externalServiceRequestId: string): unknown;
  };
  /** The put of a complete tote in a bin (to release), or null. */
  completePut(binId: string): string | null;
  /** Prints the bin's shipping labels again; null when the agent does not print (printing.mode external). */
  reprint: ((binId: string) => void) | null;
  user(seat: string): string | null;
  setOperatorLang(operator: string, lang: Lang | null): void;
  /** A scan on the seat's simulated scanner (refused where the seat has a real one). */
  simulatedScan: (seat: string, barcode: string) => void;
  /** Records a station operation's outcome as the seat's last event and pushes the screen. */
  record(seat: string, input: { kind: "tap"; text: string }, outcome: Outcome): void;
}

const refusal = (seat: string, reason: string, message: string): Outcome => ({
  seat,
  result: "refused",
  reason,
  message,
});

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
    deps.record(seat, { kind: "tap", text }, out);
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
    deps.simulatedScan(seat, barcode);
    return engine.last() ?? { seat, result: "ignored" };
  }

  return {
    run(seat: string, a: ScreenAction): Outcome {
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
        case "reprint":
          return operation(seat, a.bin, "reprinted", () => {
            if (!deps.reprint) throw new AppError("invalid_state", "the agent does not print labels here");
            deps.reprint(a.bin);
          });
        case "language":
          return language(seat, a.lang);
        case "scan":
          return scan(seat, a.barcode);
      }
    },
  };
}

export type ScreenActions = ReturnType<typeof createScreenActions>;
