/**
 * SorTexx-style fixed ASCII frames over serial, hardware.md §2.3 and §3.5 [SRC 33]:
 * `<` shelf(3) compartment(3) command param result `>`, always 11 bytes; start/stop may also be
 * `()`, `[]` or `{}` and the answer mirrors them. Shelf or compartment "000" = broadcast.
 */
import { ByteQueue, fromLatin1, latin1 } from "../../codecs/bytes.js";
import { type ParseErrorEvent, parseError } from "../../codecs/parse-error.js";

export const SORTEXX_FRAME_LENGTH = 11;
/** Start -> stop delimiter pairs [SRC 33]. */
export const SORTEXX_DELIMITERS: Readonly<Record<string, string>> = {
  "<": ">",
  "(": ")",
  "[": "]",
  "{": "}",
};

/** Result chars [SRC 33]: 0 done; C LED on, an answer "0" follows on the operator's ack; D unit busy (menu). */
export const SORTEXX_RESULTS = { ok: "0", ledOnAwaitingAck: "C", busy: "D" } as const;

export interface SortexxFrame {
  shelf: number;
  compartment: number;
  command: string;
  param: string;
  result: string;
  start: string;
  /** "SSSCCC", the module address as the station file writes it. */
  address: string;
  raw: Uint8Array;
}

export interface SortexxCommand {
  shelf: number;
  compartment: number;
  /** e.g. "1" LED exclusive on, "2" cumulative on, "3" cumulative off, "R" reset, "S" buzzer [SRC 33]. */
  command: string;
  /** e.g. "0" off, "1" green, "2" yellow, "3" red, "5"-"F" flashing variants [SRC 33]. */
  param: string;
  /** Start delimiter; the controller answers with the same pair. Default "<". */
  start?: string;
}

const pad3 = (n: number): string => n.toString().padStart(3, "0");
const isChar = (c: string): boolean => c.length === 1 && c >= "\x21" && c <= "\x7e";

/** Commands are sent with result "0" (§3.5): `<001005120>` = LED exclusive on, yellow, shelf 1 compartment 5. */
export function encodeSortexx(cmd: SortexxCommand): Uint8Array {
  const start = cmd.start ?? "<";
  const stop = SORTEXX_DELIMITERS[start];
  if (stop === undefined)
    throw new RangeError(`encodeSortexx: start delimiter ${JSON.stringify(start)} unknown`);
  for (const [name, v] of [
    ["shelf", cmd.shelf],
    ["compartment", cmd.compartment],
  ] as const) {
    if (!Number.isInteger(v) || v < 0 || v > 999)
      throw new RangeError(`encodeSortexx: ${name} must be 0..999`);
  }
  if (!isChar(cmd.command)) throw new RangeError("encodeSortexx: command must be one printable character");
  if (!isChar(cmd.param)) throw new RangeError("encodeSortexx: param must be one printable character");
  return fromLatin1(`${start}${pad3(cmd.shelf)}${pad3(cmd.compartment)}${cmd.command}${cmd.param}0${stop}`);
}

/** Decodes exactly one 11-byte frame, or null if it is not one. */
export function decodeSortexx(raw: Uint8Array): SortexxFrame | null {
  if (raw.length !== SORTEXX_FRAME_LENGTH) return null;
  const s = latin1(raw);
  const start = s[0] ?? "";
  if (SORTEXX_DELIMITERS[start] !== s[10] || !/^\d{6}$/.test(s.slice(1, 7))) return null;
  const [command, param, result] = [s[7] ?? "", s[8] ?? "", s[9] ?? ""];
  if (!isChar(command) || !isChar(param) || !isChar(result)) return null;
  return {
    shelf: Number(s.slice(1, 4)),
    compartment: Number(s.slice(4, 7)),
    command,
    param,
    result,
    start,
    address: s.slice(1, 7),
    raw,
  };
}

export type SortexxParseEvent = ({ type: "frame" } & SortexxFrame) | ParseErrorEvent<"garbage">;

/**
 * Stream parser: finds a start delimiter, then checks each byte as it arrives (digits in the address,
 * matching stop), so a broken frame is dropped at its first bad byte and a frame starting inside it
 * is still found.
 */
export class SortexxParser {
  private readonly queue = new ByteQueue();

  push(chunk: Uint8Array): SortexxParseEvent[] {
    this.queue.push(chunk);
    const out: SortexxParseEvent[] = [];
    const garbage: number[] = [];
    const flushGarbage = () => {
      if (garbage.length > 0) out.push(parseError("garbage", Uint8Array.from(garbage.splice(0))));
    };
    while (this.queue.length > 0) {
      if (!this.prefixPlausible()) {
        garbage.push(this.queue.take(1)[0] ?? 0);
        continue;
      }
      if (this.queue.length < SORTEXX_FRAME_LENGTH) break;
      const frame = decodeSortexx(this.queue.slice(0, SORTEXX_FRAME_LENGTH));
      if (frame === null) {
        garbage.push(this.queue.take(1)[0] ?? 0);
        continue;
      }
      this.queue.take(SORTEXX_FRAME_LENGTH);
      flushGarbage();
      out.push({ type: "frame", ...frame });
    }
    flushGarbage();
    return out;
  }

  reset(): void {
    this.queue.clear();
  }

  private prefixPlausible(): boolean {
    const q = this.queue;
    const stop = SORTEXX_DELIMITERS[String.fromCharCode(q.at(0))];
    if (stop === undefined) return false;
    const upto = Math.min(q.length, SORTEXX_FRAME_LENGTH);
    for (let i = 1; i < upto; i++) {
      const b = q.at(i);
      if (i <= 6 && (b < 0x30 || b > 0x39)) return false;
      if (i >= 7 && i <= 9 && (b < 0x21 || b > 0x7e)) return false;
      if (i === 10 && b !== stop.charCodeAt(0)) return false;
    }
    return true;
  }
}
