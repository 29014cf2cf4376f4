/**
 * LED-485 series 6-digit RS-485 display (LED-485-046) used as a quantity display, hardware.md §2.4
 * [SRC 35]: FC06 register 0x0000 = signed 16-bit value; FC06 0x0004 = decimal point position (0-3, lost
 * on reboot); FC16 0x0080 = custom 7-segment string, two characters per register, first in the high
 * byte; only space, 0-9 and A-Z. (0x0090 float is documented but "does not work".)
 */
import { encodeWriteMultipleRegisters, encodeWriteSingleRegister } from "../modbus-rtu/modbus-rtu.codec.js";

export const LED485_REGISTERS = {
  value: 0x0000,
  setUnitId: 0x0002,
  setBaudCode: 0x0003,
  decimalPoint: 0x0004,
  segments: 0x0080,
} as const;

/** Baud rate codes for register 0x0003 [SRC 35]. */
export const LED485_BAUD_CODES: Readonly<Record<number, number>> = {
  1200: 1,
  2400: 2,
  4800: 3,
  9600: 4,
  19200: 5,
  38400: 6,
  57600: 7,
  115200: 8,
};

const DIGITS = 6;

/** 7-segment patterns (bit0 = segment a ... bit6 = g) for the characters the display accepts [SRC 35]. */
const SEGMENTS: Readonly<Record<string, number>> = {
  " ": 0x00,
  "0": 0x3f,
  "1": 0x06,
  "2": 0x5b,
  "3": 0x4f,
  "4": 0x66,
  "5": 0x6d,
  "6": 0x7d,
  "7": 0x07,
  "8": 0x7f,
  "9": 0x6f,
  A: 0x77,
  B: 0x7c,
  C: 0x39,
  D: 0x5e,
  E: 0x79,
  F: 0x71,
  G: 0x3d,
  H: 0x76,
  I: 0x10,
  J: 0x0e,
  K: 0x7a,
  L: 0x38,
  M: 0x55,
  N: 0x54,
  O: 0x5c,
  P: 0x73,
  Q: 0x67,
  R: 0x50,
  S: 0x64,
  T: 0x78,
  U: 0x3e,
  V: 0x62,
  W: 0x6a,
  X: 0x36,
  Y: 0x6e,
  Z: 0x49,
};

/** Shows a signed 16-bit number (e.g. a pick quantity). */
export function encodeLed485Value(
  unit: number,
  value: number,
  register: number = LED485_REGISTERS.value,
): Uint8Array {
  if (!Number.isInteger(value) || value < -0x8000 || value > 0x7fff) {
    throw new RangeError(`encodeLed485Value: ${value} is not a signed 16-bit integer`);
  }
  return encodeWriteSingleRegister(unit, register, value);
}

export function encodeLed485DecimalPoint(unit: number, position: number): Uint8Array {
  if (!Number.isInteger(position) || position < 0 || position > 3) {
    throw new RangeError("encodeLed485DecimalPoint: position must be 0..3");
  }
  return encodeWriteSingleRegister(unit, LED485_REGISTERS.decimalPoint, position);
}

/** Register words for `text` (1-6 chars, lower case accepted); odd lengths get a trailing space. */
export function led485SegmentWords(text: string): number[] {
  const upper = text.toUpperCase();
  if (upper.length < 1 || upper.length > DIGITS)
    throw new RangeError(`led485: text must be 1..${DIGITS} characters`);
  const padded = upper.length % 2 === 1 ? `${upper} ` : upper;
  const words: number[] = [];
  for (let i = 0; i < padded.length; i += 2) {
    const hi = SEGMENTS[padded[i] ?? ""];
    const lo = SEGMENTS[padded[i + 1] ?? ""];
    if (hi === undefined || lo === undefined) {
      throw new RangeError(`led485: only space, 0-9 and A-Z can be shown: ${JSON.stringify(text)}`);
    }
    words.push((hi << 8) | lo);
  }
  return words;
}

/** Shows text, e.g. "SHORT" or a quantity above 32767, via the custom segment string. */
export function encodeLed485Text(
  unit: number,
  text: string,
  register: number = LED485_REGISTERS.segments,
): Uint8Array {
  return encodeWriteMultipleRegisters(unit, register, led485SegmentWords(text));
}
