/**
 * Modbus RTU frames (ADU = unit id, function code, data, CRC low, CRC high), hardware.md §2.4 and §3.3
 * [SRC 36, 39, 41]: request encoders for FC 01/02/03/04/05/06/0F/10, the length rules that let a
 * parser cut frames without timing, and decoders for whole frames. Stream parsing: modbus-rtu.parser.ts.
 * Addresses here are PDU addresses (0-based); a profile states how its manual numbers them [SRC 42].
 */

import { hasValidCrc, withCrc } from "../../codecs/crc16-modbus.js";
import { type ParseErrorEvent, parseError } from "../../codecs/parse-error.js";

export const MODBUS_FC = {
  readCoils: 0x01,
  readDiscreteInputs: 0x02,
  readHoldingRegisters: 0x03,
  readInputRegisters: 0x04,
  writeSingleCoil: 0x05,
  writeSingleRegister: 0x06,
  writeMultipleCoils: 0x0f,
  writeMultipleRegisters: 0x10,
} as const;

/** Exception codes sent after fc|0x80 [SRC 41]. */
export const MODBUS_EXCEPTIONS: Readonly<Record<number, string>> = {
  1: "illegal-function",
  2: "illegal-data-address",
  3: "illegal-data-value",
  4: "slave-device-failure",
  6: "slave-device-busy",
};

const READ_FCS = new Set<number>([0x01, 0x02, 0x03, 0x04]);
const WRITE_FCS = new Set<number>([0x05, 0x06, 0x0f, 0x10]);
/** Quantity limits per request, from the Modbus application protocol (bounded by the 256-byte ADU). */
const MAX_QTY: Readonly<Record<number, number>> = { 1: 2000, 2: 2000, 3: 125, 4: 125, 15: 1968, 16: 123 };

function check(cond: boolean, message: string): void {
  if (!cond) throw new RangeError(message);
}

function header(unit: number, fc: number, address: number, broadcastOk: boolean): void {
  // 1-247 unicast, 0 broadcast (no reply, so only for writes), 248-255 reserved [SRC 39b]
  check(
    Number.isInteger(unit) && unit >= (broadcastOk ? 0 : 1) && unit <= 247,
    `unit id ${unit} out of range`,
  );
  check(Number.isInteger(address) && address >= 0 && address <= 0xffff, `address ${address} out of range`);
  check(fc > 0, "function code");
}

function quantity(fc: number, address: number, count: number): void {
  const max = MAX_QTY[fc] ?? 1;
  check(
    Number.isInteger(count) && count >= 1 && count <= max,
    `quantity ${count} must be 1..${max} for FC ${fc}`,
  );
  check(address + count <= 0x10000, "address + quantity beyond 65535");
}

/** FC 01/02/03/04: read `count` coils, inputs or registers from `address`. */
export function encodeReadRequest(
  unit: number,
  fc: 1 | 2 | 3 | 4,
  address: number,
  count: number,
): Uint8Array {
  header(unit, fc, address, false);
  quantity(fc, address, count);
  return withCrc(Uint8Array.of(unit, fc, address >> 8, address & 0xff, count >> 8, count & 0xff));
}

/** FC 05: ON is sent as FF 00, OFF as 00 00. */
export function encodeWriteSingleCoil(unit: number, address: number, on: boolean): Uint8Array {
  header(unit, 5, address, true);
  return withCrc(Uint8Array.of(unit, 0x05, address >> 8, address & 0xff, on ? 0xff : 0x00, 0x00));
}

/** FC 06: `value` 0..65535, or -32768..-1 written as two's complement (i16 points). */
export function encodeWriteSingleRegister(unit: number, address: number, value: number): Uint8Array {
  header(unit, 6, address, true);
  check(
    Number.isInteger(value) && value >= -0x8000 && value <= 0xffff,
    `register value ${value} out of range`,
  );
  const v = value & 0xffff;
  return withCrc(Uint8Array.of(unit, 0x06, address >> 8, address & 0xff, v >> 8, v & 0xff));
}

/** FC 0F: coil n of the request is bit (n % 8) of data byte n / 8, LSB first. */
export function encodeWriteMultipleCoils(
  unit: number,
  address: number,
  values: readonly boolean[],
): Uint8Array {
  header(unit, 15, address, true);
  quantity(15, address, values.length);
  const data = new Uint8Array(Math.ceil(values.length / 8));
  values.forEach((on, i) => {
    if (on) data[i >> 3] = (data[i >> 3] ?? 0) | (1 << (i & 7));
  });
  const n = values.length;
  const head = Uint8Array.of(unit, 0x0f, address >> 8, address & 0xff, n >> 8, n & 0xff, data.length);
  return withCrc(Uint8Array.from([...head, ...data]));
}

/** FC 10: registers big-endian, negative values as two's complement. */
export function encodeWriteMultipleRegisters(
  unit: number,
  address: number,
  values: readonly number[],
): Uint8Array {
  header(unit, 16, address, true);
  quantity(16, address, values.length);
  const body = [
    unit,
    0x10,
    address >> 8,
    address & 0xff,
    values.length >> 8,
    values.length & 0xff,
    values.length * 2,
  ];
  for (const value of values) {
    check(
      Number.isInteger(value) && value >= -0x8000 && value <= 0xffff,
      `register value ${value} out of range`,
    );
    body.push((value >> 8) & 0xff, value & 0xff);
  }
  return withCrc(Uint8Array.from(body));
}

/**
 * Total length of a frame from its first bytes, without timing [DERIVED §3.3]: `byteAt(i)` reads
 * byte i, `available` says how many exist. Returns a length, "more" (need more bytes to know) or
 * "invalid" (these bytes cannot start a frame of this direction).
 */
export type FrameLength = number | "more" | "invalid";
export type Direction = "request" | "response";

export function frameLength(
  direction: Direction,
  byteAt: (i: number) => number,
  available: number,
): FrameLength {
  if (available < 2) return "more";
  const unit = byteAt(0);
  const fc = byteAt(1);
  if (unit > 247) return "invalid";
  if (direction === "response") {
    if (fc & 0x80) return READ_FCS.has(fc & 0x7f) || WRITE_FCS.has(fc & 0x7f) ? 5 : "invalid";
    if (WRITE_FCS.has(fc)) return 8; // echo of address + value/quantity
    if (!READ_FCS.has(fc)) return "invalid";
    if (available < 3) return "more";
    const byteCount = byteAt(2);
    return byteCount === 0 ? "invalid" : 5 + byteCount;
  }
  if (READ_FCS.has(fc) || fc === 0x05 || fc === 0x06) return 8;
  if (fc !== 0x0f && fc !== 0x10) return "invalid";
  if (available < 7) return "more";
  const byteCount = byteAt(6);
  return byteCount === 0 ? "invalid" : 9 + byteCount;
}

/** `type` tells a decoded frame from a ParseErrorEvent; `kind` tells the frames apart. */
export type ModbusResponse = { type: "response"; unit: number; fc: number } & (
  | { kind: "read"; data: Uint8Array }
  | { kind: "write"; address: number; value: number }
  | { kind: "exception"; code: number; name: string }
);

export type ModbusRequest = { type: "request"; unit: number; fc: number; address: number } & (
  | { kind: "read"; count: number }
  | { kind: "write-single"; value: number }
  | { kind: "write-multiple"; count: number; data: Uint8Array }
);

export type ModbusFrameError = "bad-crc" | "bad-length" | "bad-function";

const u16 = (f: Uint8Array, i: number): number => ((f[i] ?? 0) << 8) | (f[i + 1] ?? 0);

/** Decodes one whole response frame, CRC included. */
export function decodeResponse(frame: Uint8Array): ModbusResponse | ParseErrorEvent<ModbusFrameError> {
  const len = frameLength("response", (i) => frame[i] ?? 0, frame.length);
  if (len === "invalid") return parseError("bad-function", frame);
  if (len !== frame.length) return parseError("bad-length", frame);
  if (!hasValidCrc(frame)) return parseError("bad-crc", frame);
  const unit = frame[0] ?? 0;
  const fc = frame[1] ?? 0;
  if (fc & 0x80) {
    const code = frame[2] ?? 0;
    const name = MODBUS_EXCEPTIONS[code] ?? "unknown";
    return { type: "response", kind: "exception", unit, fc: fc & 0x7f, code, name };
  }
  if (READ_FCS.has(fc))
    return { type: "response", kind: "read", unit, fc, data: frame.slice(3, frame.length - 2) };
  return { type: "response", kind: "write", unit, fc, address: u16(frame, 2), value: u16(frame, 4) };
}

/** Decodes one whole request frame (for device emulators and bus sniffing). */
export function decodeRequest(frame: Uint8Array): ModbusRequest | ParseErrorEvent<ModbusFrameError> {
  const len = frameLength("request", (i) => frame[i] ?? 0, frame.length);
  if (len === "invalid") return parseError("bad-function", frame);
  if (len !== frame.length) return parseError("bad-length", frame);
  if (!hasValidCrc(frame)) return parseError("bad-crc", frame);
  const unit = frame[0] ?? 0;
  const fc = frame[1] ?? 0;
  const address = u16(frame, 2);
  const head = { type: "request", unit, fc, address } as const;
  if (READ_FCS.has(fc)) return { ...head, kind: "read", count: u16(frame, 4) };
  if (fc === 0x05 || fc === 0x06) return { ...head, kind: "write-single", value: u16(frame, 4) };
  return { ...head, kind: "write-multiple", count: u16(frame, 4), data: frame.slice(7, frame.length - 2) };
}

/** Big-endian 16-bit registers of a read response's data. */
export function registersOf(data: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < data.length; i += 2) out.push(u16(data, i));
  return out;
}

/** Coil/input states of a read response (FC 01/02): bit n is bit (n % 8) of byte n / 8, LSB first. */
export function bitsOf(data: Uint8Array, count: number): boolean[] {
  return Array.from(
    { length: Math.min(count, data.length * 8) },
    (_, i) => (((data[i >> 3] ?? 0) >> (i & 7)) & 1) === 1,
  );
}
