import { describe, expect, it } from "vitest";
import { toHex } from "../../../../../src/devices/codecs/bytes.js";
import { withCrc } from "../../../../../src/devices/codecs/crc16-modbus.js";
import {
  encodeLed485DecimalPoint,
  encodeLed485Text,
  encodeLed485Value,
  led485SegmentWords,
} from "../../../../../src/devices/drivers/led485/led485.codec.js";
import {
  decodeResponse,
  registersOf,
} from "../../../../../src/devices/drivers/modbus-rtu/modbus-rtu.codec.js";
import {
  asBaBeamCount,
  asBaBeamReadRequest,
  decodeAsBaBeams,
  shadedBeams,
} from "../../../../../src/devices/drivers/modbus-sensor/delta-as-ba.codec.js";
import {
  decodePoint,
  readChannelBit,
} from "../../../../../src/devices/drivers/modbus-sensor/modbus-points.js";
import { hex } from "../../../../support/devices/streams.js";

describe("Delta AS-BA beam status [SRC 40]", () => {
  const response = hex("01 03 08 02 3f 02 00 02 c0 02 1f 9b c3");
  const words = [0x023f, 0x0200, 0x02c0, 0x021f];

  it("builds the manual's request 01 03 00 50 00 04 44 18", () => {
    expect(toHex(asBaBeamReadRequest(1, 4))).toBe("01 03 00 50 00 04 44 18");
    expect(() => asBaBeamReadRequest(1, 17)).toThrow(RangeError);
  });

  it("reads the manual's example: beams 7-22 shaded on a 28-beam model", () => {
    const decoded = decodeResponse(response);
    if (decoded.type !== "response" || decoded.kind !== "read") throw new Error("expected a read response");
    expect(registersOf(decoded.data)).toEqual(words);
    const beams = decodeAsBaBeams(words);
    expect(beams.modes).toEqual([2, 2, 2, 2]); // measurement mode
    expect(asBaBeamCount(beams.clear)).toBe(28);
    expect(shadedBeams(beams, 28)).toEqual(Array.from({ length: 16 }, (_, i) => i + 7));
    // beam N+1 = 29 reads 1, beams beyond read 0
    expect(beams.clear.slice(28)).toEqual([true, false, false, false]);
  });

  it("bit order: MSB -> LSB = higher -> lower beam", () => {
    expect(decodeAsBaBeams([0x0201]).clear).toEqual([true, false, false, false, false, false, false, false]);
    expect(decodeAsBaBeams([0x0280]).clear).toEqual([false, false, false, false, false, false, false, true]);
    expect(asBaBeamCount(decodeAsBaBeams([0x0200]).clear)).toBeNull();
  });

  it("reads channels by 1-based beam number (profile `bit`)", () => {
    const data = hex("02 3f 02 00 02 c0 02 1f");
    expect(readChannelBit("bits-msb-first", data, 4, 1)).toBe(1); // beam 1 clear
    expect(readChannelBit("bits-msb-first", data, 4, 7)).toBe(0); // beam 7 shaded
    expect(readChannelBit("bits-msb-first", data, 4, 9)).toBe(0);
    expect(readChannelBit("bits-msb-first", data, 4, 23)).toBe(1);
    expect(readChannelBit("bits-msb-first", data, 4, 33)).toBeUndefined();
  });
});

describe("Modbus discrete inputs (FC02) for buttons and photo-eyes", () => {
  it("reads channels by 0-based input offset, LSB first", () => {
    const reply = decodeResponse(withCrc(hex("02 02 02 05 01")));
    if (reply.type !== "response" || reply.kind !== "read") throw new Error("expected a read response");
    expect(readChannelBit("bits", reply.data, 16, 0)).toBe(1);
    expect(readChannelBit("bits", reply.data, 16, 1)).toBe(0);
    expect(readChannelBit("bits", reply.data, 16, 2)).toBe(1);
    expect(readChannelBit("bits", reply.data, 16, 8)).toBe(1);
    expect(readChannelBit("bits", reply.data, 16, 9)).toBe(0);
    expect(readChannelBit("bits", reply.data, 16, 16)).toBeUndefined();
  });
});

describe("typed Modbus points", () => {
  const data = hex("ff fe 00 02 41 42 43 00 3f c0 00 00");
  it.each([
    ["u16", 2, [0xfffe, 2]],
    ["i16", 2, [-2, 2]],
    ["u32be", 2, [0xfffe0002]],
    ["ascii", 2, "ABC"],
  ] as const)("%s", (type, count, want) => {
    const d = type === "ascii" ? data.subarray(4) : data;
    expect(decodePoint(type, d, count)).toEqual(want);
  });

  it("f32be", () => {
    expect(decodePoint("f32be", hex("3f c0 00 00"), 2)).toEqual([1.5]);
  });
});

describe("LED-485-046 display writes [SRC 35]", () => {
  it("writes a signed value to register 0 with FC06", () => {
    expect(toHex(encodeLed485Value(1, 42))).toBe(toHex(withCrc(hex("01 06 00 00 00 2a"))));
    expect(toHex(encodeLed485Value(1, -1))).toBe(toHex(withCrc(hex("01 06 00 00 ff ff"))));
    expect(() => encodeLed485Value(1, 40000)).toThrow(RangeError);
    expect(() => encodeLed485Value(1, 1.5)).toThrow(RangeError);
  });

  it("sets the decimal point with FC06 register 4", () => {
    expect(toHex(encodeLed485DecimalPoint(3, 2))).toBe(toHex(withCrc(hex("03 06 00 04 00 02"))));
    expect(() => encodeLed485DecimalPoint(3, 4)).toThrow(RangeError);
  });

  it("packs two 7-segment characters per register, first in the high byte", () => {
    expect(led485SegmentWords("01A")).toEqual([0x3f06, 0x7700]); // '0'=3F '1'=06 'A'=77, odd length padded
    expect(led485SegmentWords("short")).toEqual(led485SegmentWords("SHORT"));
    expect(() => led485SegmentWords("A.B")).toThrow(RangeError);
    expect(() => led485SegmentWords("1234567")).toThrow(RangeError);
    expect(() => led485SegmentWords("")).toThrow(RangeError);
  });

  it("writes the segment string with FC16 at 0x0080", () => {
    expect(toHex(encodeLed485Text(1, "10"))).toBe(toHex(withCrc(hex("01 10 00 80 00 01 02 06 3f"))));
  });
});
