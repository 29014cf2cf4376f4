import { describe, expect, it } from "vitest";
import {
  HidKeyboardDecoder,
  type HidKeyboardEvent,
  type HidKeyboardOptions,
  newlyPressed,
} from "../../../../../src/devices/drivers/hid-keyboard/hid-keyboard.codec.js";
import { hex, hexFixture } from "../../../../support/devices/streams.js";

const base: HidKeyboardOptions = {
  reportId: null,
  layout: "us",
  altNumpad: false,
  altNumpadAbove127: "reject",
  ctrlMap: {},
  prefix: "",
  suffix: "\r",
  idleTerminatorMs: null,
};

/** Feeds reports 5 ms apart, as a scanner types, and collects every event. */
function run(decoder: HidKeyboardDecoder, reports: Uint8Array[], start = 0, step = 5): HidKeyboardEvent[] {
  return reports.flatMap((r, i) => decoder.push(r, start + i * step));
}

const scans = (events: HidKeyboardEvent[]) => events.filter((e) => e.type === "scan").map((e) => e.text);

/** Boot report for one key: [mod, 0, usage, 0...]. */
const key = (usage: number, mod = 0) => Uint8Array.of(mod, 0, usage, 0, 0, 0, 0, 0);
const none = () => new Uint8Array(8);

describe("HID keyboard decoder: recorded captures", () => {
  it('decodes the node-hid capture "6957842208856" + Enter [SRC 17]', () => {
    const decoder = new HidKeyboardDecoder(base);
    const events = run(decoder, hexFixture("wedge-6957842208856.hex"));
    expect(events).toEqual([{ type: "scan", text: "6957842208856", terminatedBy: "suffix" }]);
    // The Ctrl+Shift+J after Enter types nothing, so an idle tick later finds nothing pending.
    expect(decoder.tick(10_000)).toEqual([]);
  });

  it('decodes the Alt+keypad capture to "SIP-4-1" [SRC 22]', () => {
    const decoder = new HidKeyboardDecoder({ ...base, altNumpad: true });
    expect(scans(run(decoder, hexFixture("wedge-alt-numpad-sip-4-1.hex")))).toEqual(["SIP-4-1"]);
  });

  it("without altNumpad the same capture yields no characters but the bare Enter", () => {
    const decoder = new HidKeyboardDecoder(base);
    expect(scans(run(decoder, hexFixture("wedge-alt-numpad-sip-4-1.hex")))).toEqual([]);
  });

  it("reads 9-byte reports with a report-id prefix (02 00 00 27 ...) [SRC 18]", () => {
    const decoder = new HidKeyboardDecoder({ ...base, reportId: 2 });
    const reports = [
      hex("02 00 00 27 00 00 00 00 00"),
      hex("02 00 00 00 00 00 00 00 00"),
      hex("02 00 00 28 00 00 00 00 00"),
    ];
    expect(scans(run(decoder, reports))).toEqual(["0"]);
  });

  it("reports a report with another id instead of decoding it", () => {
    const decoder = new HidKeyboardDecoder({ ...base, reportId: 2 });
    const events = decoder.push(hex("01 00 00 27 00 00 00 00 00"), 0);
    expect(events).toMatchObject([{ type: "parse-error", reason: "wrong-report-id" }]);
  });
});

describe("HID keyboard decoder: rules of hardware.md §3.1", () => {
  it("applies Shift from either shift bit, including modifier-only reports first", () => {
    const decoder = new HidKeyboardDecoder(base);
    const reports = [
      key(0, 0x02), // LeftShift alone
      key(0x04, 0x02), // A
      none(),
      key(0x1e, 0x20), // RightShift + 1 = !
      none(),
      key(0x2d), // -
      none(),
      key(0x2d, 0x02), // _
      none(),
      key(0x28),
    ];
    expect(scans(run(decoder, reports))).toEqual(["A!-_"]);
  });

  it("types every new key of a multi-key report, in slot order, and not keys still held", () => {
    const decoder = new HidKeyboardDecoder(base);
    const reports = [hex("00 00 04 05 06 00 00 00"), hex("00 00 05 06 07 00 00 00"), none(), key(0x28)];
    expect(scans(run(decoder, reports))).toEqual(["abcd"]);
  });

  it("ignores ErrorRollOver reports without losing the keys held before them [SRC 20, 21]", () => {
    const decoder = new HidKeyboardDecoder(base);
    const rollover = hex("00 00 01 01 01 01 01 01");
    const reports = [key(0x04), rollover, key(0x04), none(), key(0x05), none(), key(0x28)];
    // 'a' is still down after the rollover report, so it is not typed twice
    expect(scans(run(decoder, reports))).toEqual(["ab"]);
  });

  it("maps Ctrl combinations only through the profile's ctrlMap", () => {
    const withGs = new HidKeyboardDecoder({ ...base, ctrlMap: { "ctrl+0x30": "\x1d" } });
    const reports = [
      key(0x1e),
      none(),
      key(0x30, 0x01),
      none(),
      key(0x10, 0x10),
      none(),
      key(0x1f),
      none(),
      key(0x28),
    ];
    // Ctrl+] -> GS; Ctrl+M (RightCtrl) is not mapped and types nothing
    expect(scans(run(withGs, reports))).toEqual(["1\x1d2"]);
    const without = new HidKeyboardDecoder(base);
    expect(scans(run(without, reports))).toEqual(["12"]);
  });

  it("strips the prefix and supports a multi-character suffix", () => {
    const decoder = new HidKeyboardDecoder({ ...base, prefix: "#", suffix: "\t\r" });
    const reports = [key(0x20, 0x02), none(), key(0x04), none(), key(0x2b), none(), key(0x28), none()];
    expect(scans(run(decoder, reports))).toEqual(["a"]);
  });

  it("ends a message after the idle time, judged by the timestamps passed in", () => {
    const decoder = new HidKeyboardDecoder({ ...base, suffix: "", idleTerminatorMs: 80 });
    expect(run(decoder, [key(0x1e), none(), key(0x1f), none()], 1000, 10)).toEqual([]);
    expect(decoder.deadline()).toBe(1030 + 80);
    expect(decoder.tick(1109)).toEqual([]);
    expect(decoder.tick(1110)).toEqual([{ type: "scan", text: "12", terminatedBy: "idle" }]);
    expect(decoder.deadline()).toBeNull();
  });

  it("a report arriving after the idle gap first ends the previous message", () => {
    const decoder = new HidKeyboardDecoder({ ...base, idleTerminatorMs: 50 });
    run(decoder, [key(0x1e), none()], 0, 5);
    const events = run(decoder, [key(0x1f), none(), key(0x28)], 500, 5);
    expect(events.map((e) => (e.type === "scan" ? [e.text, e.terminatedBy] : e.reason))).toEqual([
      ["1", "idle"],
      ["2", "suffix"],
    ]);
  });

  it("Alt codes above 127 follow the profile: latin1 or reported", () => {
    const alt233 = [hex("04 00 5a 5b 5b 00 00 00"), none(), key(0x28)]; // Alt+233 = é in latin1
    const latin = new HidKeyboardDecoder({ ...base, altNumpad: true, altNumpadAbove127: "latin1" });
    expect(scans(run(latin, alt233))).toEqual(["\u00e9"]);
    const strict = new HidKeyboardDecoder({ ...base, altNumpad: true, altNumpadAbove127: "reject" });
    expect(run(strict, alt233)).toMatchObject([{ type: "parse-error", reason: "alt-code-out-of-range" }]);
  });

  it("refuses options that could never end a message", () => {
    expect(() => new HidKeyboardDecoder({ ...base, suffix: "", idleTerminatorMs: null })).toThrow(RangeError);
  });
});

describe("newlyPressed", () => {
  it.each([
    { prev: [], cur: [0x62, 0x60, 0x62], want: [0x62, 0x60, 0x62] },
    { prev: [0x04], cur: [0x04, 0x05], want: [0x05] },
    { prev: [0x04, 0x05], cur: [0x05], want: [] },
    { prev: [0x62], cur: [0x62, 0x62], want: [0x62] },
  ])("$prev -> $cur gives $want", ({ prev, cur, want }) => {
    expect(newlyPressed(prev, cur)).toEqual(want);
  });
});
