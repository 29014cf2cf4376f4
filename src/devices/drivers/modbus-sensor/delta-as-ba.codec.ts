/**
 * Delta AS-BA communicating area sensor (light curtain) over Modbus RTU, hardware.md §2.5 [SRC 40].
 * Beam status registers 0x0050-0x005F: high byte = mode (1 ON/OFF, 2 measurement, 5 scan/diagnosis),
 * low byte = 8 beams, MSB -> LSB = higher -> lower beam (0x0050 = beams 8..1, 0x0051 = 16..9, ...);
 * 1 = not shaded (light passes), 0 = shaded.
 */
import { encodeReadRequest } from "../modbus-rtu/modbus-rtu.codec.js";

export const AS_BA_REGISTERS = {
  beamStatus: 0x0050,
  model: 0x0080,
  address: 0x0081,
  baudCode: 0x0082,
  format: 0x0083,
} as const;

/** 0x0050-0x005F: 16 registers, 128 beams at most. */
const MAX_BEAM_REGISTERS = 16;

export interface AsBaBeams {
  /** High byte of each register (expected 2 in measurement mode). */
  modes: number[];
  /** Index 0 = beam 1. true = not shaded. */
  clear: boolean[];
}

/** FC03 read of `registers` beam-status registers from 0x0050, e.g. 4 for beams 1-32. */
export function asBaBeamReadRequest(unit: number, registers: number): Uint8Array {
  if (!Number.isInteger(registers) || registers < 1 || registers > MAX_BEAM_REGISTERS) {
    throw new RangeError(`asBaBeamReadRequest: registers must be 1..${MAX_BEAM_REGISTERS}`);
  }
  return encodeReadRequest(unit, 3, AS_BA_REGISTERS.beamStatus, registers);
}

/** Decodes the register words of a beam-status read (starting at 0x0050). */
export function decodeAsBaBeams(words: readonly number[]): AsBaBeams {
  const modes: number[] = [];
  const clear: boolean[] = [];
  for (const w of words) {
    modes.push((w >> 8) & 0xff);
    // bit 0 of the low byte is the lowest beam of this register's group of 8
    for (let bit = 0; bit < 8; bit++) clear.push(((w >> bit) & 1) === 1);
  }
  return { modes, clear };
}

/**
 * Beams of the model, read from the data itself: "if the model's total number of beams is N, beam N+1
 * should read 1; beams beyond N+1 read 0" [SRC 40]. Only valid when the read covers beam N+1; null
 * when no beam reads 1.
 */
export function asBaBeamCount(clear: readonly boolean[]): number | null {
  const highest = clear.lastIndexOf(true);
  return highest < 1 ? null : highest; // index of beam N+1 is N
}

/** Shaded beam numbers (1-based) among the first `beamCount` beams. */
export function shadedBeams(beams: AsBaBeams, beamCount: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < Math.min(beamCount, beams.clear.length); i++) if (!beams.clear[i]) out.push(i + 1);
  return out;
}
