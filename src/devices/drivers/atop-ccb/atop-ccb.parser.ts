/**
 * Stream parser for Atop CCB frames sent by the controller (events from tags), hardware.md §2.2/§3.4.
 * Length-driven like the C# driver (byte 0 = total length, then read LEN-1 more) [SRC 31], which is
 * what lets it accept confirm/shortage frames of both 14 and 15 bytes: the manual says 14, the driver
 * expects 15 [SRC 30, 31]. Header bytes are checked as they arrive so a stray byte costs one byte, not
 * a frame.
 */
import { ByteQueue, latin1 } from "../../codecs/bytes.js";
import { type ParseErrorEvent, parseError } from "../../codecs/parse-error.js";

/** Controller -> host sub-commands [SRC 30, 31]. */
export const ATOP_EVENTS = {
  6: "confirm",
  7: "shortage",
  9: "status",
  10: "timeout", // the TAG did not acknowledge the controller, not a TCP problem [SRC 30]
  11: "malfunction",
  12: "illegal-command",
  13: "buttons-locked",
  14: "old-reset",
  15: "stock-quantity",
  36: "confirm", // confirm when "cycle edit" is enabled [SRC 30]
  100: "special", // e.g. AT503A buffer full, DATA[0] = 02
  252: "reset-ok",
} as const satisfies Record<number, string>;

export type AtopEventKind = (typeof ATOP_EVENTS)[keyof typeof ATOP_EVENTS] | "other";

export interface AtopEvent {
  type: "event";
  kind: AtopEventKind;
  messageType: number;
  subCommand: number;
  /** Tag address; null for controller-wide frames (09 status has no sub-node). */
  node: number | null;
  data: Uint8Array;
  /** Confirm/shortage/stock: the characters the tag showed (DATA[0..5], 0x00 padding removed). */
  text?: string;
  frame: Uint8Array;
}

export type AtopParseErrorReason = "garbage";
export type AtopParseEvent = AtopEvent | ParseErrorEvent<AtopParseErrorReason>;

export interface AtopCcbParserOptions {
  /** Message types accepted as frame starts, e.g. [0x60] (profile). */
  messageTypes: readonly number[];
  /** Longest frame accepted; LEN(H) is always 0 here, so at most 255. */
  maxFrameLength: number;
}

const MIN_FRAME = 7; // status request: LEN 7 [SRC 30]
const WITH_TEXT = new Set([0x06, 0x07, 0x0f, 0x24]);

/** Decodes one whole frame (already cut by the parser or read from a fixture). */
export function decodeAtopFrame(frame: Uint8Array): AtopEvent {
  const sub = frame[6] ?? 0;
  const kind: AtopEventKind = (ATOP_EVENTS as Record<number, AtopEventKind>)[sub] ?? "other";
  const hasNode = frame.length > MIN_FRAME && sub !== 0x09;
  const data = frame.slice(hasNode ? 8 : 7);
  const ev: AtopEvent = {
    type: "event",
    kind,
    messageType: frame[2] ?? 0,
    subCommand: sub,
    node: hasNode ? (frame[7] ?? null) : null,
    data,
    frame,
  };
  if (WITH_TEXT.has(sub)) ev.text = latin1(data.subarray(0, 6)).replaceAll("\0", "");
  return ev;
}

export class AtopCcbParser {
  private readonly queue = new ByteQueue();

  constructor(private readonly opts: AtopCcbParserOptions) {
    if (opts.maxFrameLength < MIN_FRAME || opts.maxFrameLength > 0xff) {
      throw new RangeError(`AtopCcbParser: maxFrameLength must be ${MIN_FRAME}..255`);
    }
    if (opts.messageTypes.length === 0) throw new RangeError("AtopCcbParser: messageTypes must not be empty");
  }

  push(chunk: Uint8Array): AtopParseEvent[] {
    this.queue.push(chunk);
    const out: AtopParseEvent[] = [];
    const garbage: number[] = [];
    const flushGarbage = () => {
      if (garbage.length > 0) out.push(parseError("garbage", Uint8Array.from(garbage.splice(0))));
    };
    while (this.queue.length > 0) {
      if (!this.headerPlausible()) {
        garbage.push(this.queue.take(1)[0] ?? 0);
        continue;
      }
      const len = this.queue.at(0);
      if (this.queue.length < len) break;
      flushGarbage();
      out.push(decodeAtopFrame(this.queue.take(len)));
    }
    flushGarbage();
    return out;
  }

  reset(): void {
    this.queue.clear();
  }

  /** Checks the header bytes received so far: LEN in range, LEN(H) 0, known message type, reserved 0. */
  private headerPlausible(): boolean {
    const q = this.queue;
    const len = q.at(0);
    if (len < MIN_FRAME || len > this.opts.maxFrameLength) return false;
    if (q.length > 1 && q.at(1) !== 0) return false;
    if (q.length > 2 && !this.opts.messageTypes.includes(q.at(2))) return false;
    for (let i = 3; i <= 5 && i < q.length; i++) if (q.at(i) !== 0) return false;
    return true;
  }
}

/** What a controller event means to the station: a press, a tag that did not answer, a fault, or nothing. */
export type AtopMeaning =
  | { kind: "button"; address: string; button: "confirm" | "shortage" }
  | { kind: "tag-timeout"; node: number }
  | { kind: "fault"; reason: string }
  | null;

export function atopMeaning(ev: AtopEvent): AtopMeaning {
  const node = ev.node;
  switch (ev.kind) {
    case "confirm":
    case "shortage":
      if (node === null) return { kind: "fault", reason: `${ev.kind} without a node` };
      return { kind: "button", address: String(node), button: ev.kind };
    case "timeout":
      return { kind: "tag-timeout", node: node ?? -1 };
    case "malfunction":
    case "illegal-command":
    case "buttons-locked":
    case "special":
      return { kind: "fault", reason: `${ev.kind}${node === null ? "" : ` at tag ${node}`}` };
    default:
      return null; // status lists, reset-ok, stock quantities: nothing the station acts on
  }
}
