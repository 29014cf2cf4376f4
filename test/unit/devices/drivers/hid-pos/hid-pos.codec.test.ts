import { describe, expect, it } from "vitest";
import { latin1 } from "../../../../../src/devices/codecs/bytes.js";
import {
  HidPosDecoder,
  type HidPosEvent,
  type HidPosLayout,
} from "../../../../../src/devices/drivers/hid-pos/hid-pos.codec.js";
import { ascii, hexFixture } from "../../../../support/devices/streams.js";

/** Honeywell / Access-IS layout as hidapi delivers it [SRC 10, 11, 12]. */
const honeywell: HidPosLayout = {
  reportId: 2,
  reportIdInBuffer: true,
  lengthOffset: 1,
  aimOffset: 2,
  aimProbe: false,
  dataOffset: 5,
  maxDataPerReport: 56,
  vendorCodeIdOffset: 61,
  continuedOffset: 63,
  continuedMask: 1,
  stripSuffix: "\r",
  maxMessageBytes: 4096,
};

/** Builds a 64-byte report in the Honeywell layout. */
function report(aim: string, data: Uint8Array, more: boolean, codeId = 0x3f): Uint8Array {
  const r = new Uint8Array(64);
  r[0] = 2;
  r[1] = data.length;
  r.set(ascii(aim), 2);
  r.set(data, 5);
  r[61] = codeId;
  r[63] = more ? 1 : 0;
  return r;
}

const scansOf = (events: HidPosEvent[]) => events.filter((e) => e.type === "scan");

describe("HID POS decoder: recorded Honeywell capture [SRC 11]", () => {
  const reports = hexFixture("honeywell-revinf.hidpos.hex");

  it("reassembles six reports into one message and reads the ]Z6 answer separately", () => {
    const decoder = new HidPosDecoder(honeywell);
    const events = reports.flatMap((r) => decoder.push(r));
    const scans = scansOf(events);
    expect(scans).toHaveLength(2);
    const [info, answer] = scans;
    expect(info?.reports).toBe(6);
    expect(info?.truncated).toBe(false);
    expect(info?.aim).toBe("]X0");
    expect(info?.codeId).toBe("?");
    expect(info?.data.length).toBe(5 * 56 + 9);
    expect(info?.text.startsWith("Product Name: Voyager 1602g\r\nBoot Revision")).toBe(true);
    expect(info?.text.endsWith("Checksum: N/A\r\n")).toBe(true);
    expect(answer).toMatchObject({ aim: "]Z6", codeId: "6", reports: 1, truncated: false });
    // the command echoed back, then ACK (0x06) and the trailing '.'
    expect(latin1(answer?.data ?? new Uint8Array())).toBe("REVINF\x06.");
  });

  it("flags the message as truncated when its last report is lost", () => {
    const decoder = new HidPosDecoder(honeywell);
    const withoutLast = [...reports.slice(0, 5), reports[6] as Uint8Array];
    const scans = scansOf(withoutLast.flatMap((r) => decoder.push(r)));
    expect(scans.map((s) => [s.aim, s.truncated, s.reports])).toEqual([
      ["]X0", true, 5],
      ["]Z6", false, 1],
    ]);
  });
});

describe("HID POS decoder: layouts", () => {
  it("splits 60 data bytes over two reports (Access-IS manual example) [SRC 10]", () => {
    const data = ascii("0123456789".repeat(6));
    const decoder = new HidPosDecoder(honeywell);
    const first = report("]C0", data.subarray(0, 0x38), true);
    const second = report("]C0", data.subarray(0x38), false);
    expect(first[1]).toBe(0x38);
    expect(decoder.push(first)).toEqual([]);
    const [scan] = scansOf(decoder.push(second));
    expect(scan?.text).toBe("0123456789".repeat(6));
    expect(scan?.reports).toBe(2);
  });

  it("strips the configured suffix from a finished message", () => {
    const decoder = new HidPosDecoder(honeywell);
    const [scan] = scansOf(decoder.push(report("]E0", ascii("4006381333931\r"), false, 0x64)));
    expect(scan).toMatchObject({ text: "4006381333931", aim: "]E0", codeId: "d" });
  });

  it("reads WebHID buffers (no report id byte) with the same profile offsets [SRC 9]", () => {
    const decoder = new HidPosDecoder({ ...honeywell, reportIdInBuffer: false });
    const full = report("]C0", ascii("ABC-123"), false);
    const [scan] = scansOf(decoder.push(full.subarray(1), 2));
    expect(scan).toMatchObject({ text: "ABC-123", aim: "]C0", codeId: "?" });
    expect(decoder.push(full.subarray(1), 4)).toEqual([]); // another report id: ignored
  });

  it("finds the AIM one byte later when aimProbe is on (extra byte before the AIM) [SRC 9]", () => {
    const shifted = new Uint8Array(64);
    shifted.set([2, 5, 0x00], 0);
    shifted.set(ascii("]Q1HELLO"), 3);
    shifted[63] = 0;
    const probing = new HidPosDecoder({ ...honeywell, aimProbe: true });
    expect(scansOf(probing.push(shifted))[0]).toMatchObject({ aim: "]Q1", text: "HELLO" });
    const strict = new HidPosDecoder(honeywell);
    expect(scansOf(strict.push(shifted))[0]).toMatchObject({ aim: null, text: "1HELL" });
  });

  it("decodes the Newland FM430 layout: data at byte 2, no AIM, symbology id at 62 [SRC 24]", () => {
    const decoder = new HidPosDecoder({
      ...honeywell,
      aimOffset: null,
      dataOffset: 2,
      vendorCodeIdOffset: 62,
      continuedOffset: null,
      stripSuffix: "",
    });
    const r = new Uint8Array(63);
    r[0] = 2;
    r[1] = 8;
    r.set(ascii("12345670"), 2);
    r[62] = 0x64;
    expect(scansOf(decoder.push(r))[0]).toMatchObject({
      text: "12345670",
      aim: null,
      codeId: "d",
      reports: 1,
    });
  });

  it("ignores reports with another report id (e.g. the trigger report)", () => {
    const decoder = new HidPosDecoder(honeywell);
    const trigger = new Uint8Array(64);
    trigger[0] = 4;
    expect(decoder.push(trigger)).toEqual([]);
  });

  it("reports a length beyond the data area or the report, and a short report", () => {
    const decoder = new HidPosDecoder(honeywell);
    const tooLong = report("]C0", ascii("x"), false);
    tooLong[1] = 57;
    expect(decoder.push(tooLong)).toMatchObject([{ type: "parse-error", reason: "bad-length" }]);
    expect(decoder.push(Uint8Array.of(2, 1, 0x5d))).toMatchObject([
      { type: "parse-error", reason: "short-report" },
    ]);
  });

  it("flushes a message whose continued bit never clears once it exceeds maxMessageBytes", () => {
    const decoder = new HidPosDecoder({ ...honeywell, maxMessageBytes: 100 });
    const chunk = ascii("y".repeat(56));
    expect(decoder.push(report("]C0", chunk, true))).toEqual([]);
    const [scan] = scansOf(decoder.push(report("]C0", chunk, true)));
    expect(scan).toMatchObject({ truncated: true, reports: 2 });
    expect(decoder.flush()).toEqual([]);
  });

  it("flush() hands on a pending message as truncated", () => {
    const decoder = new HidPosDecoder(honeywell);
    decoder.push(report("]C0", ascii("part"), true));
    expect(scansOf(decoder.flush())[0]).toMatchObject({ text: "part", truncated: true });
  });
});
