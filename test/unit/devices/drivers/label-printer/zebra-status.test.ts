import { describe, expect, it } from "vitest";
import {
  createHostStatusDecoder,
  encodeHostStatus,
  jobVerdict,
  parseHostStatus,
  type ZebraStatus,
  zebraFault,
  zebraIdle,
} from "../../../../../src/devices/drivers/label-printer/zebra-status.js";

const READY: ZebraStatus = {
  paperOut: false,
  paused: false,
  labelLengthDots: 1218,
  formatsInBuffer: 0,
  bufferFull: false,
  partialFormat: false,
  corruptRam: false,
  underTemperature: false,
  overTemperature: false,
  headOpen: false,
  ribbonOut: false,
  labelsRemaining: 0,
};

/** A ~HS answer as the programming guide lays it out, written by hand (not by the encoder under test). */
const GUIDE_ANSWER =
  "\u0002030,1,1,1218,002,0,0,1,000,0,0,0\u0003\r\n" +
  "\u0002001,0,1,0,0,2,6,0,00000003,1,000\u0003\r\n" +
  "\u00021234,0\u0003\r\n";

const bytes = (s: string) => Buffer.from(s, "latin1");

describe("~HS host status", () => {
  it("reads the guide's field layout: paper out, pause, formats, partial format, head open, labels remaining", () => {
    const [s] = createHostStatusDecoder().push(bytes(GUIDE_ANSWER));
    expect(s).toEqual({
      ...READY,
      paperOut: true,
      paused: true,
      formatsInBuffer: 2,
      partialFormat: true,
      headOpen: true,
      labelsRemaining: 3,
    });
  });

  it.each([
    ["paperOut", "the printer is out of paper"],
    ["paused", "the printer is paused"],
    ["headOpen", "the printer's head is open"],
    ["ribbonOut", "the printer is out of ribbon"],
    ["bufferFull", "the printer's receive buffer is full"],
    ["overTemperature", "the printer's head is too hot"],
    ["corruptRam", "the printer's memory is corrupt"],
  ] as const)("each flag round-trips through the wire form and is a fault in words: %s", (flag, words) => {
    const status = { ...READY, [flag]: true };
    const [s] = createHostStatusDecoder().push(bytes(encodeHostStatus(status)));
    expect(s).toEqual(status);
    expect(zebraFault(s as ZebraStatus)).toBe(words);
  });

  it("a ready printer has no fault and is idle; a format waiting or a batch left is not idle", () => {
    expect(zebraFault(READY)).toBeNull();
    expect(zebraIdle(READY)).toBe(true);
    expect(zebraIdle({ ...READY, formatsInBuffer: 1 })).toBe(false);
    expect(zebraIdle({ ...READY, partialFormat: true })).toBe(false);
    expect(zebraIdle({ ...READY, labelsRemaining: 1 })).toBe(false);
    // a cold head prints lighter, it does not stop the printer
    expect(zebraFault({ ...READY, underTemperature: true })).toBeNull();
  });

  it("a label's verdict: done when idle with no fault, the fault in words, otherwise not yet", () => {
    expect(jobVerdict(READY)).toBe("done");
    expect(jobVerdict({ ...READY, formatsInBuffer: 1 })).toBeNull();
    expect(jobVerdict({ ...READY, formatsInBuffer: 1, paused: true })).toBe("the printer is paused");
  });

  it("answers split into chunks of any size are read whole, one status per answer", () => {
    for (const size of [1, 2, 3, 7, 13, 40]) {
      const decoder = createHostStatusDecoder();
      const wire = bytes(GUIDE_ANSWER + encodeHostStatus(READY));
      const got: ZebraStatus[] = [];
      for (let i = 0; i < wire.length; i += size) got.push(...decoder.push(wire.subarray(i, i + size)));
      expect(got.map((s) => s.paperOut)).toEqual([true, false]);
    }
  });

  it("garbage, a partial answer and strings out of place are dropped; the next whole answer is read", () => {
    const decoder = createHostStatusDecoder();
    expect(decoder.push(bytes("noise\r\n\u0002030,0,0\u0003\r\n"))).toEqual([]);
    // string 2 and 3 without string 1
    expect(decoder.push(bytes("\u0002001,0,1,0,0,2,6,0,00000000,1,000\u0003\u00021234,0\u0003"))).toEqual([]);
    // an answer cut after string 1, then a whole one
    const cut = GUIDE_ANSWER.slice(0, GUIDE_ANSWER.indexOf("\n") + 1);
    expect(decoder.push(bytes(cut + encodeHostStatus(READY)))).toEqual([READY]);
    // letters where digits belong
    expect(decoder.push(bytes(GUIDE_ANSWER.replace("1218", "12x8")))).toEqual([]);
    // a string with no end is dropped once it is longer than any status
    expect(decoder.push(bytes(`\u0002${"9".repeat(300)}`))).toEqual([]);
    expect(decoder.push(bytes(encodeHostStatus(READY)))).toEqual([READY]);
  });

  it("parseHostStatus refuses strings that are not the documented layout", () => {
    expect(parseHostStatus("030,0,0", "001", "1234,0")).toBeNull();
  });
});
