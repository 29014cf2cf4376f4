import { describe, expect, it } from "vitest";
import { concatBytes } from "../../../../../src/devices/codecs/bytes.js";
import {
  type SerialScannerEvent,
  type SerialScannerOptions,
  SerialScannerParser,
} from "../../../../../src/devices/drivers/serial-scanner/serial-scanner.codec.js";
import { ascii, chunkings, feed } from "../../../../support/devices/streams.js";

const cr: SerialScannerOptions = { prefix: "", suffix: "\r", maxLength: 64 };
const scans = (events: SerialScannerEvent[]) => events.filter((e) => e.type === "scan").map((e) => e.text);
const errors = (events: SerialScannerEvent[]) =>
  events.filter((e) => e.type === "parse-error").map((e) => e.reason);

describe("serial scanner line splitter", () => {
  const codes = ["6957842208856", "]C1010061414199999610ABC\x1d21X1", "SIP-4-1"];

  for (const [suffixName, suffix] of [
    ["CR", "\r"],
    ["CRLF", "\r\n"],
  ] as const) {
    const stream = ascii(codes.map((c) => c + suffix).join(""));
    for (const [how, chunks] of chunkings(stream)) {
      it(`splits ${suffixName}-terminated scans fed ${how}`, () => {
        const parser = new SerialScannerParser({ ...cr, suffix });
        const events = feed((c) => parser.push(c), chunks);
        expect(scans(events)).toEqual(codes);
        expect(errors(events)).toEqual([]);
      });
    }
  }

  it("keeps an unterminated scan until its suffix arrives", () => {
    const parser = new SerialScannerParser({ ...cr, suffix: "\r\n" });
    expect(parser.push(ascii("1234\r"))).toEqual([]);
    expect(scans(parser.push(ascii("\n")))).toEqual(["1234"]);
  });

  it("strips a prefix and reports bytes before it as garbage", () => {
    const parser = new SerialScannerParser({ ...cr, prefix: "\x02" });
    const events = parser.push(ascii("\x02ABC\r\xff\xfe\x02DEF\rGHI\r"));
    expect(scans(events)).toEqual(["ABC", "DEF"]);
    expect(errors(events)).toEqual(["garbage", "missing-prefix"]);
  });

  it("ignores empty lines", () => {
    const parser = new SerialScannerParser(cr);
    expect(scans(parser.push(ascii("\r\rA\r\r")))).toEqual(["A"]);
  });

  it("drops an overlong line once and recovers at the next suffix", () => {
    const parser = new SerialScannerParser({ ...cr, maxLength: 8 });
    const stream = concatBytes([ascii("X".repeat(30)), ascii("Y".repeat(30)), ascii("\rGOOD\r")]);
    for (const [, chunks] of chunkings(stream)) {
      parser.reset();
      const events = feed((c) => parser.push(c), chunks);
      expect(scans(events)).toEqual(["GOOD"]);
      expect(errors(events)).toEqual(["overflow"]);
    }
  });

  it("keeps data bytes above 0x7F as one char per byte", () => {
    const parser = new SerialScannerParser(cr);
    const [scan] = parser.push(Uint8Array.of(0x41, 0xe9, 0x0d));
    expect(scan).toMatchObject({ type: "scan", text: "A\u00e9" });
  });

  it("refuses an empty suffix", () => {
    expect(() => new SerialScannerParser({ ...cr, suffix: "" })).toThrow(RangeError);
  });
});
