/**
 * Meaning of SorTexx answers over time [SRC 33], hardware.md §2.3: result "C" means the LED is on and
 * waits for the operator; the operator's press arrives later as a second answer with result "0" for
 * the same address. Only that pairing makes a "0" a confirmation; any other "0" is a plain echo.
 */
import { SORTEXX_RESULTS, type SortexxFrame } from "./sortexx.codec.js";

export type SortexxAnswerKind = "executed" | "awaiting-ack" | "confirmed" | "busy" | "unknown-result";

export interface SortexxAnswer {
  kind: SortexxAnswerKind;
  address: string;
  frame: SortexxFrame;
}

export interface SortexxResultChars {
  ok: string;
  ledOnAwaitingAck: string;
  busy: string;
}

export class SortexxAckTracker {
  /** Address -> the command/param that answered "C" and still waits for the operator. */
  private readonly pending = new Map<string, { command: string; param: string }>();

  constructor(private readonly results: SortexxResultChars = SORTEXX_RESULTS) {}

  classify(frame: SortexxFrame): SortexxAnswer {
    const { address } = frame;
    const answer = (kind: SortexxAnswerKind): SortexxAnswer => ({ kind, address, frame });
    switch (frame.result) {
      case this.results.ledOnAwaitingAck:
        this.pending.set(address, { command: frame.command, param: frame.param });
        return answer("awaiting-ack");
      case this.results.ok: {
        const waiting = this.pending.get(address);
        if (waiting === undefined) return answer("executed");
        this.pending.delete(address);
        // The second answer repeats the original frame [SRC 33]; a "0" for another command on the same
        // address (e.g. LED off) is that command's echo and ends the wait without a confirmation.
        const same = waiting.command === frame.command && waiting.param === frame.param;
        return answer(same ? "confirmed" : "executed");
      }
      case this.results.busy:
        return answer("busy");
      default:
        return answer("unknown-result");
    }
  }

  /** Addresses whose LED is on and waiting for the operator. */
  awaiting(): string[] {
    return [...this.pending.keys()];
  }

  /** Drop a wait, e.g. after the station turned that light off itself. */
  forget(address: string): void {
    this.pending.delete(address);
  }
}
