/**
 * Stream parser for Modbus RTU. Frames are cut by the length rules of modbus-rtu.codec.ts rather than
 * by t3.5 silence, because Node timers plus USB-serial latency cannot see sub-millisecond gaps
 * [ASSUMPTION §3.3]; silence (`interFrameGapMs`, a profile setting) is only a fallback that drops a
 * stale partial frame [SRC 38, 48].
 *
 * Resynchronisation never skips a good frame: a candidate that fails its CRC costs one byte, and while
 * a candidate is still incomplete the buffer is searched for a later complete frame with a valid CRC,
 * so a bogus length read from noise cannot hold a real reply back.
 */
import { ByteQueue } from "../../codecs/bytes.js";
import { hasValidCrc } from "../../codecs/crc16-modbus.js";
import { type ParseErrorEvent, parseError } from "../../codecs/parse-error.js";
import {
  type Direction,
  decodeRequest,
  decodeResponse,
  frameLength,
  type ModbusRequest,
  type ModbusResponse,
} from "./modbus-rtu.codec.js";

export type ModbusParseErrorReason = "garbage" | "bad-crc" | "stale";

export type ModbusMessage<D extends Direction> = D extends "response" ? ModbusResponse : ModbusRequest;

export type ModbusParseEvent<D extends Direction> =
  | { type: "frame"; raw: Uint8Array; message: ModbusMessage<D> }
  | ParseErrorEvent<ModbusParseErrorReason>;

export interface ModbusRtuParserOptions<D extends Direction> {
  /** "response" on the master side (the agent); "request" for device emulators. */
  direction: D;
  /** Silence after which a partial frame is dropped; null = length rules only. */
  interFrameGapMs: number | null;
}

/** t3.5 for a baud rate: 3.5 x 11 bits / baud up to 19200, fixed 1.75 ms above [SRC 38]. */
export function t35Ms(baudRate: number): number {
  return baudRate > 19200 ? 1.75 : (3.5 * 11 * 1000) / baudRate;
}

export class ModbusRtuParser<D extends Direction> {
  private readonly queue = new ByteQueue();
  private lastByteAt: number | null = null;

  constructor(private readonly opts: ModbusRtuParserOptions<D>) {}

  /** `nowMs` is only used with `interFrameGapMs`. */
  push(chunk: Uint8Array, nowMs?: number): ModbusParseEvent<D>[] {
    const out: ModbusParseEvent<D>[] = [];
    const gap = this.opts.interFrameGapMs;
    if (gap !== null && nowMs !== undefined) {
      if (this.lastByteAt !== null && nowMs - this.lastByteAt > gap && this.queue.length > 0) {
        out.push(parseError("stale", this.queue.take(this.queue.length)));
      }
      this.lastByteAt = nowMs;
    }
    this.queue.push(chunk);

    let dropped: number[] = [];
    let reason: ModbusParseErrorReason = "garbage";
    const drop = (n: number, why: ModbusParseErrorReason) => {
      if (dropped.length === 0) reason = why;
      dropped.push(...this.queue.take(n));
    };
    const flushDropped = () => {
      if (dropped.length > 0) out.push(parseError(reason, Uint8Array.from(dropped)));
      dropped = [];
    };

    while (this.queue.length > 0) {
      const len = this.lengthAt(0);
      if (len === "invalid") {
        drop(1, "garbage");
        continue;
      }
      if (len === "more" || this.queue.length < len) {
        const later = this.nextCompleteFrame(1);
        if (later < 0) break;
        drop(later, "garbage");
        continue;
      }
      if (!hasValidCrc(this.queue.slice(0, len))) {
        drop(1, "bad-crc");
        continue;
      }
      flushDropped();
      this.emit(this.queue.take(len), out);
    }
    flushDropped();
    return out;
  }

  /** Reports whatever is left as stale (e.g. on a response timeout) and empties the buffer. */
  flush(): ModbusParseEvent<D>[] {
    return this.queue.length === 0 ? [] : [parseError("stale", this.queue.take(this.queue.length))];
  }

  reset(): void {
    this.queue.clear();
    this.lastByteAt = null;
  }

  private lengthAt(offset: number) {
    return frameLength(this.opts.direction, (i) => this.queue.at(offset + i), this.queue.length - offset);
  }

  /** First offset >= `from` where a whole frame with a valid CRC already sits, or -1. */
  private nextCompleteFrame(from: number): number {
    for (let k = from; k < this.queue.length; k++) {
      const len = this.lengthAt(k);
      if (
        typeof len === "number" &&
        k + len <= this.queue.length &&
        hasValidCrc(this.queue.slice(k, k + len))
      ) {
        return k;
      }
    }
    return -1;
  }

  private emit(raw: Uint8Array, out: ModbusParseEvent<D>[]): void {
    const decoded = this.opts.direction === "response" ? decodeResponse(raw) : decodeRequest(raw);
    // Length and CRC were checked already, so decoding cannot fail here; the guard narrows the type.
    if (decoded.type === "parse-error") out.push(parseError("garbage", raw));
    else out.push({ type: "frame", raw, message: decoded as ModbusMessage<D> });
  }
}
