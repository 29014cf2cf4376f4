/**
 * Typed values of the Modbus "points" a profile names (hardware.md §4.2 `modbusMap`): turns the data of
 * a read response into numbers, bits or text, and reads one sensor channel out of it.
 */

import { bitsOf, registersOf } from "../modbus-rtu/modbus-rtu.codec.js";
import { decodeAsBaBeams } from "./delta-as-ba.codec.js";

export type PointType = "u16" | "i16" | "u32be" | "f32be" | "bits" | "bits-msb-first" | "ascii" | "segments";

export type PointValue = number[] | boolean[] | string;

const i16 = (w: number): number => (w & 0x8000 ? w - 0x10000 : w);

/**
 * `data` is the data of a read response (after the byte count); `count` is the point's count
 * (registers, or coils/inputs for "bits").
 */
export function decodePoint(type: PointType, data: Uint8Array, count: number): PointValue {
  const words = registersOf(data).slice(0, count);
  switch (type) {
    case "u16":
    case "segments":
      return words;
    case "i16":
      return words.map(i16);
    case "u32be":
    case "f32be": {
      const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
      const out: number[] = [];
      for (let i = 0; i + 4 <= Math.min(data.length, count * 2); i += 4) {
        out.push(type === "u32be" ? view.getUint32(i, false) : view.getFloat32(i, false));
      }
      return out;
    }
    case "bits":
      return bitsOf(data, count);
    case "bits-msb-first":
      return decodeAsBaBeams(words).clear;
    case "ascii":
      return words
        .map((w) => String.fromCharCode(w >> 8, w & 0xff))
        .join("")
        .replace(/\0+$/, "");
  }
}

/**
 * One channel's raw bit. For "bits" (FC01/FC02) `bit` is the 0-based offset from the point's first
 * coil/input; for "bits-msb-first" (Delta AS-BA beams) it is the 1-based beam number [SRC 40].
 * undefined when the bit lies outside the data that was read.
 */
export function readChannelBit(
  type: "bits" | "bits-msb-first",
  data: Uint8Array,
  count: number,
  bit: number,
): 0 | 1 | undefined {
  const bits = decodePoint(type, data, count) as boolean[];
  const v = type === "bits" ? bits[bit] : bits[bit - 1];
  return v === undefined ? undefined : v ? 1 : 0;
}
