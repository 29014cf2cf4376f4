import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { toHex } from "../../../../../src/devices/codecs/bytes.js";
import {
  ATOP_COMMANDS,
  AtopCcbEncoder,
  encodeCcb,
} from "../../../../../src/devices/drivers/atop-ccb/atop-ccb.codec.js";
import {
  ATOP_EVENTS,
  AtopCcbParser,
  type AtopParseEvent,
  decodeAtopFrame,
} from "../../../../../src/devices/drivers/atop-ccb/atop-ccb.parser.js";
import { cat, chunkings, feed, hex } from "../../../../support/devices/streams.js";

const enc = new AtopCcbEncoder({ messageType: 0x60 });
const newParser = () => new AtopCcbParser({ messageTypes: [0x60, 0x61], maxFrameLength: 255 });

describe("Atop CCB encoder: worked frames of hardware.md §2.2", () => {
  it.each([
    ['display "12" on tag 5', () => enc.display(5, "12"), "0f 00 60 00 00 00 00 05 00 00 00 00 31 32 00"],
    ["reset tag 5", () => enc.reset(5), "08 00 60 00 00 00 14 05"],
    ["status of all devices", () => enc.statusRequest(), "07 00 60 00 00 00 09"],
    ["tag 5 green, volatile", () => enc.colour(5, 1), "0a 00 60 00 00 00 1f 05 00 01"],
  ])("%s", (_name, build, want) => {
    expect(toHex(build())).toBe(want);
  });

  it("encodes the other commands with LEN = frame length", () => {
    expect(toHex(enc.clear(7))).toBe("08 00 60 00 00 00 01 07");
    expect(toHex(enc.led(7, true))).toBe("08 00 60 00 00 00 02 07");
    expect(toHex(enc.led(7, false))).toBe("08 00 60 00 00 00 03 07");
    expect(toHex(enc.buzzer(252, true))).toBe("08 00 60 00 00 00 04 fc");
    expect(toHex(enc.buzzer(7, false))).toBe("08 00 60 00 00 00 05 07");
    expect(toHex(enc.flashLed(7))).toBe("08 00 60 00 00 00 11 07");
    expect(toHex(enc.showAddress(7))).toBe("08 00 60 00 00 00 13 07");
    expect(toHex(enc.confirmButton(7, false))).toBe("08 00 60 00 00 00 1b 07");
    expect(toHex(enc.shortageButton(7, true))).toBe("08 00 60 00 00 00 16 07");
    expect(toHex(enc.colour(7, 5, true))).toBe("0b 00 60 00 00 00 1f 07 00 05 55");
  });

  it("right-aligns display text, sets the dot mask and the flash variant", () => {
    expect(toHex(enc.display(1, "123456", { dots: 0x04 }))).toBe(
      "0f 00 60 00 00 00 00 01 31 32 33 34 35 36 04",
    );
    expect(toHex(enc.display(1, "7", { flash: true }))).toBe("0f 00 60 00 00 00 10 01 00 00 00 00 00 37 00");
    expect(toHex(new AtopCcbEncoder({ messageType: 0x61 }).clear(1))).toBe("08 00 61 00 00 00 01 01");
  });

  it("refuses what a tag cannot take", () => {
    expect(() => enc.display(5, "1234567")).toThrow(RangeError);
    expect(() => enc.display(0, "1")).toThrow(RangeError);
    expect(() => enc.display(251, "1")).toThrow(RangeError);
    expect(() => enc.display(5, "1", { dots: 0x40 })).toThrow(RangeError);
    const digitsOnly = new AtopCcbEncoder({ messageType: 0x60, displayCharset: "0123456789 -" });
    expect(() => digitsOnly.display(5, "12A")).toThrow(RangeError);
    expect(toHex(digitsOnly.display(5, "-12"))).toBe("0f 00 60 00 00 00 00 05 00 00 00 2d 31 32 00");
  });

  it("encodeCcb builds frames without a node", () => {
    expect(encodeCcb({ messageType: 0x60, subCommand: ATOP_COMMANDS.pollRange, data: [0x20] })).toEqual(
      hex("08 00 60 00 00 00 08 20"),
    );
  });
});

const confirm14 = hex("0e 00 60 00 00 00 06 05 00 00 00 00 31 32");
const confirm15 = hex("0f 00 60 00 00 00 06 05 00 00 00 00 31 32 00");
const shortage14 = hex("0e 00 60 00 00 00 07 09 00 00 00 00 00 33");
const shortage15 = hex("0f 00 60 00 00 00 07 09 00 00 00 00 00 33 00");
const timeout = hex("08 00 60 00 00 00 0a 11");
const malfunction = hex("08 00 60 00 00 00 0b 12");
const resetOk = hex("08 00 60 00 00 00 fc 05");
const status = hex("0b 00 60 00 00 00 09 ff 0f 00 80");
const special = hex("09 00 60 00 00 00 64 05 02");

type Summary = [string, number | null, string | undefined];
const summary = (events: AtopParseEvent[]): Array<Summary | string> =>
  events.map((e) =>
    e.type === "event" ? [e.kind, e.node, e.text] : `${e.type}:${e.reason}:${toHex(e.bytes)}`,
  );

describe("Atop CCB parser: controller events", () => {
  it("decodes confirm and shortage in both 14- and 15-byte frames [SRC 30, 31]", () => {
    for (const f of [confirm14, confirm15]) {
      expect(decodeAtopFrame(f)).toMatchObject({ kind: "confirm", node: 5, text: "12", subCommand: 6 });
    }
    for (const f of [shortage14, shortage15]) {
      expect(decodeAtopFrame(f)).toMatchObject({ kind: "shortage", node: 9, text: "3" });
    }
  });

  it("decodes timeout, malfunction, reset-ok, special and status", () => {
    expect(decodeAtopFrame(timeout)).toMatchObject({ kind: "timeout", node: 0x11 });
    expect(decodeAtopFrame(malfunction)).toMatchObject({ kind: "malfunction", node: 0x12 });
    expect(decodeAtopFrame(resetOk)).toMatchObject({ kind: "reset-ok", node: 5 });
    expect(decodeAtopFrame(special)).toMatchObject({ kind: "special", node: 5, data: Uint8Array.of(2) });
    expect(decodeAtopFrame(status)).toMatchObject({ kind: "status", node: null, data: hex("ff 0f 00 80") });
    expect(decodeAtopFrame(hex("08 00 60 00 00 00 2a 05"))).toMatchObject({
      kind: "other",
      subCommand: 0x2a,
    });
  });

  const stream = cat(
    confirm14,
    shortage15,
    timeout,
    confirm15,
    malfunction,
    status,
    resetOk,
    shortage14,
    special,
  );
  const expected = summary(newParser().push(stream));

  it("cuts a back-to-back stream by the length byte", () => {
    expect(expected.map((s) => (typeof s === "string" ? s : s[0]))).toEqual([
      "confirm",
      "shortage",
      "timeout",
      "confirm",
      "malfunction",
      "status",
      "reset-ok",
      "shortage",
      "special",
    ]);
  });

  for (const [how, chunks] of chunkings(stream)) {
    it(`gives the same events when fed ${how}`, () => {
      const parser = newParser();
      expect(summary(feed((c) => parser.push(c), chunks))).toEqual(expected);
    });
  }

  it("skips garbage between frames, reports it, and loses no frame", () => {
    const noisy = cat(hex("ff 00"), confirm14, hex("05 0e 00 61 01"), timeout, hex("0e 00 99"), resetOk);
    for (const [, chunks] of chunkings(noisy)) {
      const parser = newParser();
      const split = feed((c) => parser.push(c), chunks);
      expect(split.filter((e) => e.type === "event").map((e) => e.type === "event" && e.kind)).toEqual([
        "confirm",
        "timeout",
        "reset-ok",
      ]);
      const dropped = split.flatMap((e) => (e.type === "parse-error" ? [...e.bytes] : []));
      expect(toHex(Uint8Array.from(dropped))).toBe("ff 00 05 0e 00 61 01 0e 00 99");
    }
  });

  it("waits for the rest of a frame split at any byte", () => {
    const parser = newParser();
    expect(parser.push(confirm15.subarray(0, 9))).toEqual([]);
    expect(summary(parser.push(confirm15.subarray(9)))).toEqual([["confirm", 5, "12"]]);
  });
});

describe("Atop profile and codec agree", () => {
  it("the atop-at500-ccb profile's sub-command table matches the codec's", () => {
    const url = new URL("../../../../../firmware-profiles/atop-at500-ccb.json", import.meta.url);
    const profile = JSON.parse(readFileSync(url, "utf8")) as {
      ptl: { atopCcb: { subCommands: Record<string, number> } };
    };
    const kinds = ATOP_EVENTS as Record<number, string>;
    const eventNames: Record<string, string> = {
      evConfirm: "confirm",
      evShortage: "shortage",
      evTimeout: "timeout",
      evMalfunction: "malfunction",
      evIllegal: "illegal-command",
      evLocked: "buttons-locked",
      evStockQty: "stock-quantity",
      evResetOk: "reset-ok",
    };
    for (const [name, code] of Object.entries(profile.ptl.atopCcb.subCommands)) {
      const event = eventNames[name];
      if (event !== undefined) expect(kinds[code], name).toBe(event);
      else expect((ATOP_COMMANDS as Record<string, number>)[name], name).toBe(code);
    }
  });
});
