import { describe, expect, it } from "vitest";
import { latin1 } from "../../../../../src/devices/codecs/bytes.js";
import {
  decodeSortexx,
  encodeSortexx,
  type SortexxParseEvent,
  SortexxParser,
} from "../../../../../src/devices/drivers/sortexx/sortexx.codec.js";
import { SortexxAckTracker } from "../../../../../src/devices/drivers/sortexx/sortexx-ack.js";
import { ascii, chunkings, feed } from "../../../../support/devices/streams.js";

const frames = (events: SortexxParseEvent[]) =>
  events.filter((e) => e.type === "frame").map((e) => latin1(e.raw));
const dropped = (events: SortexxParseEvent[]) =>
  events
    .filter((e) => e.type === "parse-error")
    .map((e) => latin1(e.bytes))
    .join("");

describe("SorTexx encoder [SRC 33]", () => {
  it("encodes the manual's example <001005120>", () => {
    expect(latin1(encodeSortexx({ shelf: 1, compartment: 5, command: "1", param: "2" }))).toBe("<001005120>");
  });

  it.each([
    ["<", "<012345R00>"],
    ["(", "(012345R00)"],
    ["[", "[012345R00]"],
    ["{", "{012345R00}"],
  ])("uses the %s delimiter pair", (start, want) => {
    expect(latin1(encodeSortexx({ shelf: 12, compartment: 345, command: "R", param: "0", start }))).toBe(
      want,
    );
  });

  it("refuses addresses and characters outside the frame", () => {
    expect(() => encodeSortexx({ shelf: 1000, compartment: 1, command: "1", param: "1" })).toThrow(
      RangeError,
    );
    expect(() => encodeSortexx({ shelf: 1, compartment: -1, command: "1", param: "1" })).toThrow(RangeError);
    expect(() => encodeSortexx({ shelf: 1, compartment: 1, command: "12", param: "1" })).toThrow(RangeError);
    expect(() => encodeSortexx({ shelf: 1, compartment: 1, command: "1", param: "1", start: "/" })).toThrow(
      RangeError,
    );
  });
});

describe("SorTexx decoder", () => {
  it("decodes an answer", () => {
    expect(decodeSortexx(ascii("<00100512C>"))).toMatchObject({
      shelf: 1,
      compartment: 5,
      address: "001005",
      command: "1",
      param: "2",
      result: "C",
      start: "<",
    });
  });

  it.each(["<001005120)", "<0010a5120>", "<00100512>", "x001005120>"])("rejects %s", (text) => {
    expect(decodeSortexx(ascii(text))).toBeNull();
  });
});

describe("SorTexx stream parser", () => {
  // echo, "C" (LED on, waiting), busy, and later the operator's "0", each delimiter pair once
  const answers = ["<001005120>", "<00100512C>", "(002001110)", "[000000R0D]", "{003007330}", "<001005120>"];
  const stream = ascii(answers.join(""));

  for (const [how, chunks] of chunkings(stream)) {
    it(`finds every frame when fed ${how}`, () => {
      const parser = new SortexxParser();
      const events = feed((c) => parser.push(c), chunks);
      expect(frames(events)).toEqual(answers);
      expect(dropped(events)).toBe("");
    });
  }

  it("drops garbage and broken frames, reports them, and loses no frame", () => {
    const noisy = `xx<001${answers[0]}\r\n<0010051>${answers[1]}<99>${answers[2]}`;
    for (const [, chunks] of chunkings(ascii(noisy))) {
      const parser = new SortexxParser();
      const events = feed((c) => parser.push(c), chunks);
      expect(frames(events)).toEqual(answers.slice(0, 3));
      expect(dropped(events)).toBe("xx<001\r\n<0010051><99>");
    }
  });
});

describe("SorTexx answers over time", () => {
  const tracker = () => new SortexxAckTracker();
  const frame = (text: string) => {
    const f = decodeSortexx(ascii(text));
    if (f === null) throw new Error(`bad test frame ${text}`);
    return f;
  };

  it.each([
    { name: "plain echo", seq: ["<001005120>"], want: ["executed"] },
    {
      name: "C then 0 = operator confirmed",
      seq: ["<00100512C>", "<001005120>"],
      want: ["awaiting-ack", "confirmed"],
    },
    { name: "busy", seq: ["<00100512D>"], want: ["busy"] },
    { name: "unknown result", seq: ["<00100512Z>"], want: ["unknown-result"] },
    {
      name: "0 for another address is not the confirmation",
      seq: ["<00100512C>", "<001006120>", "<001005120>"],
      want: ["awaiting-ack", "executed", "confirmed"],
    },
    {
      name: "LED-off echo on the waiting address ends the wait without a confirmation",
      seq: ["<00100512C>", "<001005300>", "<001005120>"],
      want: ["awaiting-ack", "executed", "executed"],
    },
  ])("$name", ({ seq, want }) => {
    const t = tracker();
    expect(seq.map((s) => t.classify(frame(s)).kind)).toEqual(want);
  });

  it("lists and forgets addresses waiting for the operator", () => {
    const t = tracker();
    t.classify(frame("<00100512C>"));
    t.classify(frame("<00200112C>"));
    expect(t.awaiting().sort()).toEqual(["001005", "002001"]);
    t.forget("001005");
    expect(t.classify(frame("<001005120>")).kind).toBe("executed");
  });

  it("uses the profile's result characters", () => {
    const t = new SortexxAckTracker({ ok: "0", ledOnAwaitingAck: "W", busy: "B" });
    expect(t.classify(frame("<00100512W>")).kind).toBe("awaiting-ack");
    expect(t.classify(frame("<00100512B>")).kind).toBe("busy");
  });
});
