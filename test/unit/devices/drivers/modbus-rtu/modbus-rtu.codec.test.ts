import { describe, expect, it } from "vitest";
import { toHex } from "../../../../../src/devices/codecs/bytes.js";
import { crc16Modbus, hasValidCrc, withCrc } from "../../../../../src/devices/codecs/crc16-modbus.js";
import {
  bitsOf,
  decodeRequest,
  decodeResponse,
  encodeReadRequest,
  encodeWriteMultipleCoils,
  encodeWriteMultipleRegisters,
  encodeWriteSingleCoil,
  encodeWriteSingleRegister,
  frameLength,
  registersOf,
} from "../../../../../src/devices/drivers/modbus-rtu/modbus-rtu.codec.js";
import { ascii, hex, seededRandom } from "../../../../support/devices/streams.js";

describe("CRC-16/MODBUS vectors of hardware.md §3.3 [SRC 36, 37, 40]", () => {
  it.each([
    ['ASCII "123456789"', ascii("123456789"), 0x4b37],
    ["Lumiplus write register", hex("30 10 00 21 00 01 02 00 01"), 0xb038],
    ["Lumiplus write coil", hex("30 0f 02 11 00 01 01 01"), 0x6ed0],
    ["Delta AS-BA request", hex("01 03 00 50 00 04"), 0x1844],
    ["Delta AS-BA response", hex("01 03 08 02 3f 02 00 02 c0 02 1f"), 0xc39b],
  ])("%s", (_name, body, crc) => {
    expect(crc16Modbus(body)).toBe(crc);
    const frame = withCrc(body);
    expect(frame[body.length]).toBe(crc & 0xff); // low byte first on the wire
    expect(frame[body.length + 1]).toBe(crc >> 8);
    expect(crc16Modbus(frame)).toBe(0); // CRC over a whole valid frame is 0
    expect(hasValidCrc(frame)).toBe(true);
  });

  it("the table-driven CRC equals the spec's bit-by-bit flowchart on random data", () => {
    const bitwise = (bytes: Uint8Array): number => {
      let crc = 0xffff;
      for (const b of bytes) {
        crc ^= b;
        for (let i = 0; i < 8; i++) crc = crc & 1 ? (crc >>> 1) ^ 0xa001 : crc >>> 1;
      }
      return crc;
    };
    const rand = seededRandom(5);
    for (let n = 0; n < 200; n++) {
      const bytes = Uint8Array.from({ length: Math.floor(rand() * 40) }, () => Math.floor(rand() * 256));
      expect(crc16Modbus(bytes)).toBe(bitwise(bytes));
    }
  });

  it("a flipped bit anywhere breaks the frame", () => {
    const frame = hex("01 03 08 02 3f 02 00 02 c0 02 1f 9b c3");
    for (let i = 0; i < frame.length; i++) {
      const bad = frame.slice();
      bad[i] = (bad[i] ?? 0) ^ 0x10;
      expect(hasValidCrc(bad), `byte ${i}`).toBe(false);
    }
  });
});

describe("Modbus request encoders", () => {
  it("encode the manual frames byte for byte", () => {
    expect(toHex(encodeWriteMultipleRegisters(0x30, 0x0021, [1]))).toBe("30 10 00 21 00 01 02 00 01 38 b0");
    expect(toHex(encodeWriteMultipleCoils(0x30, 0x0211, [true]))).toBe("30 0f 02 11 00 01 01 01 d0 6e");
    expect(toHex(encodeReadRequest(1, 3, 0x0050, 4))).toBe("01 03 00 50 00 04 44 18");
  });

  it.each([
    [1, "01 01 00 13 00 25"],
    [2, "01 02 00 13 00 25"],
    [3, "01 03 00 13 00 25"],
    [4, "01 04 00 13 00 25"],
  ] as const)("FC %i read request", (fc, body) => {
    expect(toHex(encodeReadRequest(1, fc, 0x13, 0x25))).toBe(toHex(withCrc(hex(body))));
  });

  it("FC 05 sends FF 00 / 00 00 and FC 06 sends negative values as two's complement", () => {
    expect(toHex(encodeWriteSingleCoil(0x11, 0xac, true)).slice(0, 17)).toBe("11 05 00 ac ff 00");
    expect(toHex(encodeWriteSingleCoil(0x11, 0xac, false)).slice(0, 17)).toBe("11 05 00 ac 00 00");
    expect(toHex(encodeWriteSingleRegister(1, 0, -2)).slice(0, 17)).toBe("01 06 00 00 ff fe");
  });

  it("FC 0F packs coils LSB first and FC 10 writes big-endian registers", () => {
    const coils = [true, false, true, true, false, false, true, true, true, false];
    expect(toHex(encodeWriteMultipleCoils(0x11, 0x13, coils)).slice(0, 26)).toBe(
      "11 0f 00 13 00 0a 02 cd 01",
    );
    expect(toHex(encodeWriteMultipleRegisters(0x11, 1, [0x000a, 0x0102])).slice(0, 32)).toBe(
      "11 10 00 01 00 02 04 00 0a 01 02",
    );
  });

  it("refuses requests a device could not answer", () => {
    expect(() => encodeReadRequest(0, 3, 0, 1)).toThrow(RangeError); // broadcast gets no reply
    expect(() => encodeReadRequest(248, 3, 0, 1)).toThrow(RangeError);
    expect(() => encodeReadRequest(1, 3, 0, 126)).toThrow(RangeError);
    expect(() => encodeReadRequest(1, 1, 0, 2001)).toThrow(RangeError);
    expect(() => encodeReadRequest(1, 3, 0xffff, 2)).toThrow(RangeError);
    expect(() => encodeWriteSingleRegister(1, 0, 0x10000)).toThrow(RangeError);
    expect(() => encodeWriteMultipleRegisters(1, 0, [])).toThrow(RangeError);
    expect(encodeWriteSingleRegister(0, 0, 1)[0]).toBe(0); // broadcast write is allowed
  });
});

describe("Modbus frame lengths without timing [DERIVED §3.3]", () => {
  const len = (dir: "request" | "response", bytes: string) => {
    const b = hex(bytes);
    return frameLength(dir, (i) => b[i] ?? 0, b.length);
  };
  it.each([
    ["response", "01 03 08", 13],
    ["response", "01 01 02", 7],
    ["response", "01 06", 8],
    ["response", "01 10", 8],
    ["response", "01 83", 5],
    ["response", "01 90", 5],
    ["response", "01 03", "more"],
    ["response", "01", "more"],
    ["response", "01 07", "invalid"],
    ["response", "01 c5", "invalid"],
    ["response", "01 03 00", "invalid"],
    ["response", "f8 03 02", "invalid"],
    ["request", "01 03", 8],
    ["request", "01 10 00 21 00 01 02", 11],
    ["request", "01 0f 00 21 00 01", "more"],
  ] as const)("%s %s -> %s", (dir, bytes, want) => {
    expect(len(dir, bytes)).toBe(want);
  });
});

describe("Modbus frame decoders", () => {
  it("decodes the Delta AS-BA read response [SRC 40]", () => {
    const r = decodeResponse(hex("01 03 08 02 3f 02 00 02 c0 02 1f 9b c3"));
    expect(r).toMatchObject({ kind: "read", unit: 1, fc: 3 });
    expect(r.type === "response" && r.kind === "read" && registersOf(r.data)).toEqual([
      0x023f, 0x0200, 0x02c0, 0x021f,
    ]);
  });

  it("decodes write echoes and exceptions (fc | 0x80) [SRC 41]", () => {
    expect(decodeResponse(withCrc(hex("01 06 00 04 00 02")))).toEqual({
      type: "response",
      kind: "write",
      unit: 1,
      fc: 6,
      address: 4,
      value: 2,
    });
    expect(decodeResponse(withCrc(hex("0a 83 02")))).toEqual({
      type: "response",
      kind: "exception",
      unit: 10,
      fc: 3,
      code: 2,
      name: "illegal-data-address",
    });
    expect(decodeResponse(withCrc(hex("0a 90 06")))).toMatchObject({
      kind: "exception",
      fc: 16,
      name: "slave-device-busy",
    });
  });

  it("reports bad CRC, wrong length and unknown function codes as values", () => {
    expect(decodeResponse(hex("01 03 08 02 3f 02 00 02 c0 02 1f 9b c4"))).toMatchObject({
      reason: "bad-crc",
    });
    expect(decodeResponse(hex("01 03 08 02 3f"))).toMatchObject({ reason: "bad-length" });
    expect(decodeResponse(withCrc(hex("01 41 00")))).toMatchObject({ reason: "bad-function" });
  });

  it("decodes requests (for device emulators)", () => {
    expect(decodeRequest(hex("01 03 00 50 00 04 44 18"))).toEqual({
      type: "request",
      kind: "read",
      unit: 1,
      fc: 3,
      address: 0x50,
      count: 4,
    });
    expect(decodeRequest(hex("30 10 00 21 00 01 02 00 01 38 b0"))).toEqual({
      type: "request",
      kind: "write-multiple",
      unit: 0x30,
      fc: 16,
      address: 0x21,
      count: 1,
      data: hex("00 01"),
    });
    expect(decodeRequest(hex("30 0f 02 11 00 01 01 01 d0 6e"))).toMatchObject({
      kind: "write-multiple",
      fc: 15,
    });
  });

  it("bitsOf reads coils LSB first and stops at count", () => {
    expect(bitsOf(hex("cd 01"), 10)).toEqual([
      true,
      false,
      true,
      true,
      false,
      false,
      true,
      true,
      true,
      false,
    ]);
  });
});
