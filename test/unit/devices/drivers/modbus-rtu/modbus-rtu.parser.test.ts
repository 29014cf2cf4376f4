import { describe, expect, it } from "vitest";
import { concatBytes, toHex } from "../../../../../src/devices/codecs/bytes.js";
import { withCrc } from "../../../../../src/devices/codecs/crc16-modbus.js";
import {
  type ModbusParseEvent,
  ModbusRtuParser,
  t35Ms,
} from "../../../../../src/devices/drivers/modbus-rtu/modbus-rtu.parser.js";
import {
  cat,
  chunkings,
  feed,
  hex,
  randomChunks,
  seededRandom,
} from "../../../../support/devices/streams.js";

const deltaResponse = hex("01 03 08 02 3f 02 00 02 c0 02 1f 9b c3");
const writeEcho = withCrc(hex("30 10 00 21 00 01"));
const exception = withCrc(hex("02 83 02"));
const coils = withCrc(hex("11 01 02 cd 01"));
const responses = [deltaResponse, writeEcho, exception, coils];

const responseParser = () => new ModbusRtuParser({ direction: "response", interFrameGapMs: null });
const frames = (events: ModbusParseEvent<"response">[]) =>
  events.filter((e) => e.type === "frame").map((e) => toHex(e.raw));
const errors = (events: ModbusParseEvent<"response">[]) => events.filter((e) => e.type === "parse-error");

describe("Modbus RTU stream parser: clean streams", () => {
  const stream = concatBytes(responses);
  for (const [how, chunks] of chunkings(stream)) {
    it(`cuts back-to-back responses fed ${how}`, () => {
      const parser = responseParser();
      const events = feed((c) => parser.push(c), chunks);
      expect(frames(events)).toEqual(responses.map(toHex));
      expect(errors(events)).toEqual([]);
    });
  }

  it("decodes each frame", () => {
    const events = responseParser().push(cat(deltaResponse, exception));
    expect(events.map((e) => (e.type === "frame" ? e.message.kind : e.reason))).toEqual([
      "read",
      "exception",
    ]);
  });
});

describe("Modbus RTU stream parser: resynchronisation", () => {
  /** Every input byte ends up either in a frame or in a parse error: nothing vanishes, nothing doubles. */
  function accountedFor(events: ModbusParseEvent<"response">[]): string {
    const parts = events.map((e) => (e.type === "frame" ? e.raw : e.bytes));
    return toHex(concatBytes(parts));
  }

  const corrupt = deltaResponse.slice();
  corrupt[5] = 0x99; // one bad byte: CRC fails
  const cases: Array<[string, Uint8Array, string[]]> = [
    [
      "garbage before, between and after frames",
      cat(hex("ff fe"), deltaResponse, hex("00 aa"), writeEcho, hex("07")),
      [],
    ],
    ["a frame with a bad CRC between good ones", cat(writeEcho, corrupt, exception, coils), ["bad-crc"]],
    [
      "a truncated frame followed at once by a good one",
      cat(deltaResponse.subarray(0, 6), writeEcho, coils),
      [],
    ],
    // 01 03 fa announces 250 data bytes: the parser must not sit on the good reply waiting for them
    ["noise that looks like a long read header", cat(hex("01 03 fa"), deltaResponse, exception), []],
    ["two bad frames back to back", cat(corrupt, corrupt, deltaResponse), ["bad-crc"]],
  ];

  for (const [name, stream, mustReport] of cases) {
    const good = responses.map(toHex).filter((f) => toHex(stream).includes(f));
    for (const [how, chunks] of chunkings(stream)) {
      it(`${name}, fed ${how}: keeps every good frame`, () => {
        const parser = responseParser();
        const events = [...feed((c) => parser.push(c), chunks), ...parser.flush()];
        expect(frames(events)).toEqual(good);
        expect(accountedFor(events)).toBe(toHex(stream));
        for (const reason of mustReport) expect(errors(events).map((e) => e.reason)).toContain(reason);
        expect(errors(events).length).toBeGreaterThan(0);
      });
    }
  }

  it("survives a long random mix of frames and noise (seeded)", () => {
    const rand = seededRandom(7);
    const parts: Uint8Array[] = [];
    const good: string[] = [];
    for (let i = 0; i < 200; i++) {
      const r = rand();
      if (r < 0.6) {
        const f = responses[Math.floor(rand() * responses.length)] as Uint8Array;
        parts.push(f);
        good.push(toHex(f));
      } else {
        // noise never contains a whole valid frame by construction: one to four random bytes
        parts.push(Uint8Array.from({ length: 1 + Math.floor(rand() * 4) }, () => Math.floor(rand() * 256)));
      }
    }
    const stream = concatBytes(parts);
    const parser = responseParser();
    const events = [
      ...feed((c) => parser.push(c), randomChunks(stream, seededRandom(99))),
      ...parser.flush(),
    ];
    // noise may by chance complete a frame that happens to carry a valid CRC; allow no more than that
    const got = frames(events);
    expect(got.filter((f) => !good.includes(f))).toEqual([]);
    expect(got.length).toBeGreaterThanOrEqual(good.length - 2);
    expect(accountedFor(events)).toBe(toHex(stream));
  });
});

describe("Modbus RTU stream parser: silence fallback", () => {
  it("drops a partial frame after interFrameGapMs of silence, then reads the next frame", () => {
    const parser = new ModbusRtuParser({ direction: "response", interFrameGapMs: 5 });
    expect(parser.push(deltaResponse.subarray(0, 7), 100)).toEqual([]);
    const events = parser.push(deltaResponse, 200);
    expect(events.map((e) => (e.type === "frame" ? "frame" : e.reason))).toEqual(["stale", "frame"]);
  });

  it("keeps a frame whose pieces arrive within the gap", () => {
    const parser = new ModbusRtuParser({ direction: "response", interFrameGapMs: 5 });
    parser.push(deltaResponse.subarray(0, 7), 100);
    expect(frames(parser.push(deltaResponse.subarray(7), 103))).toEqual([toHex(deltaResponse)]);
  });

  it("t3.5 is 3.5 x 11 bits up to 19200 baud and 1.75 ms above [SRC 38]", () => {
    expect(t35Ms(9600)).toBeCloseTo(4.01, 2);
    expect(t35Ms(19200)).toBeCloseTo(2.005, 3);
    expect(t35Ms(38400)).toBe(1.75);
  });
});

describe("Modbus RTU stream parser: requests (device side)", () => {
  it("cuts requests, including FC 0F/10 with their byte count", () => {
    const parser = new ModbusRtuParser({ direction: "request", interFrameGapMs: null });
    const reqs = [
      hex("01 03 00 50 00 04 44 18"),
      hex("30 10 00 21 00 01 02 00 01 38 b0"),
      hex("30 0f 02 11 00 01 01 01 d0 6e"),
    ];
    for (const [, chunks] of chunkings(concatBytes(reqs))) {
      parser.reset();
      const events = feed((c) => parser.push(c), chunks);
      expect(
        events.map((e) => (e.type === "frame" ? `${e.message.kind}:${e.message.fc}` : e.reason)),
      ).toEqual(["read:3", "write-multiple:16", "write-multiple:15"]);
    }
  });
});
