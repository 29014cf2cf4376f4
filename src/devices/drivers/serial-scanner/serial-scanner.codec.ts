/**
 * Line splitter for scanners in USB-CDC / RS-232 serial mode: the scanner sends `prefix + data + suffix`
 * (suffix usually CR or CRLF, a scanner setting [SRC 19]). Works like node-serialport's delimiter parser
 * [SRC 48] but as a pure object: `push(chunk)` returns whole scans, chunks may split anywhere, even
 * inside a two-byte suffix.
 */
import { ByteQueue, fromLatin1, latin1 } from "../../codecs/bytes.js";
import { type ParseErrorEvent, parseError } from "../../codecs/parse-error.js";

export interface SerialScannerOptions {
  /** Expected before the data; "" when the scanner sends none. */
  prefix: string;
  /** Ends each scan, e.g. "\r" or "\r\n"; must not be empty. */
  suffix: string;
  /** Longest data (without prefix/suffix) accepted before the buffer is dropped as overflow. */
  maxLength: number;
}

export interface SerialScan {
  type: "scan";
  data: Uint8Array;
  /** `data` one char per byte. */
  text: string;
}

export type SerialScannerErrorReason = "missing-prefix" | "garbage" | "overflow";
export type SerialScannerEvent = SerialScan | ParseErrorEvent<SerialScannerErrorReason>;

export class SerialScannerParser {
  private readonly queue = new ByteQueue();
  private readonly prefix: Uint8Array;
  private readonly suffix: Uint8Array;
  /** Where to resume looking for the suffix: bytes before it were already searched. */
  private searchFrom = 0;
  /** After an overflow the rest of that overlong line is dropped up to its suffix. */
  private skipping = false;

  constructor(private readonly opts: SerialScannerOptions) {
    if (opts.suffix === "") throw new RangeError("SerialScannerParser: suffix must not be empty");
    if (!(opts.maxLength >= 1)) throw new RangeError("SerialScannerParser: maxLength must be >= 1");
    this.prefix = fromLatin1(opts.prefix);
    this.suffix = fromLatin1(opts.suffix);
  }

  push(chunk: Uint8Array): SerialScannerEvent[] {
    this.queue.push(chunk);
    const out: SerialScannerEvent[] = [];
    for (;;) {
      const at = this.queue.indexOf(this.suffix, this.searchFrom);
      if (at < 0) break;
      const line = this.queue.take(at + this.suffix.length).subarray(0, at);
      this.searchFrom = 0;
      // The tail of an overlong line was already reported with its head.
      if (this.skipping) this.skipping = false;
      else this.emitLine(line, out);
    }
    // The suffix may straddle chunks, so the last suffix.length-1 bytes are searched again next time.
    this.searchFrom = Math.max(0, this.queue.length - this.suffix.length + 1);
    const limit = this.opts.maxLength + this.prefix.length + this.suffix.length;
    if (this.queue.length > limit) {
      const keep = this.suffix.length - 1;
      const dropped = this.queue.take(this.queue.length - keep);
      if (!this.skipping) out.push(parseError("overflow", dropped));
      this.skipping = true;
      this.searchFrom = 0;
    }
    return out;
  }

  /** Bytes received since the last suffix (e.g. for a diagnostic on disconnect). */
  pending(): Uint8Array {
    return this.queue.slice(0, this.queue.length);
  }

  reset(): void {
    this.queue.clear();
    this.searchFrom = 0;
    this.skipping = false;
  }

  private emitLine(line: Uint8Array, out: SerialScannerEvent[]): void {
    let data = line;
    if (this.prefix.length > 0) {
      const at = indexOfBytes(line, this.prefix);
      if (at < 0) {
        if (line.length > 0) out.push(parseError("missing-prefix", line));
        return;
      }
      if (at > 0) out.push(parseError("garbage", line.slice(0, at)));
      data = line.slice(at + this.prefix.length);
    }
    if (data.length === 0) return; // empty line, e.g. a lone terminator
    if (data.length > this.opts.maxLength) {
      out.push(parseError("overflow", data));
      return;
    }
    out.push({ type: "scan", data, text: latin1(data) });
  }
}

function indexOfBytes(hay: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}
