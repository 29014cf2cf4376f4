import { describe, expect, it } from "vitest";
import {
  indexProfiles,
  parseProfileText,
  validateProfile,
} from "../../../../src/devices/profiles/validate-profile.js";
import { type Json, type Mutation, readProfileJson, refusal } from "../../../support/devices/profiles.js";

/** Sets (or with `undefined`, deletes) the value at a JSON pointer. */
const set =
  (pointer: string, value: unknown): Mutation =>
  (doc) => {
    const keys = pointer
      .split("/")
      .slice(1)
      .map((k) => k.replaceAll("~1", "/").replaceAll("~0", "~"));
    const last = keys.pop() ?? "";
    let node: Json = doc;
    for (const k of keys) node = node[k];
    if (value === undefined) delete node[last];
    else node[last] = value;
  };
const del = (pointer: string): Mutation => set(pointer, undefined);
const both =
  (...edits: Mutation[]): Mutation =>
  (doc) => {
    for (const e of edits) e(doc);
  };
const serial = { type: "serial", baudRate: 9600, dataBits: 8, parity: "none", stopBits: 1 };

describe("bad profiles are refused with file, path and reason", () => {
  const HW = "honeywell-hidpos.json";
  const WEDGE = "generic-wedge-us.json";
  const SER = "serial-scanner-cr.json";
  const SX = "sortexx-ascii.json";
  const ATOP = "atop-at500-ccb.json";
  const DELTA = "delta-as-ba-modbus.json";
  const DI = "modbus-di-16.json";
  const cases: Array<[string, string, Mutation, string]> = [
    ["misspelt key", HW, set("/scanner/hidPos/dataOfset", 5), "scanner.hidPos.dataOfset"],
    ["wrong type", SX, set("/transport/baudRate", "fast"), "transport.baudRate"],
    ["unknown kind", SX, set("/kind", "robot"), "kind"],
    ["missing provenance", SX, del("/provenance"), "provenance"],
    ["upper-case vendor id", HW, set("/match/usb/vendorId", "0x0C2E"), "match.usb.vendorId"],
    ["hid-pos body missing", HW, del("/scanner/hidPos"), "scanner.hidPos"],
    [
      "offset beyond the report",
      HW,
      set("/scanner/hidPos/continuedOffset", 64),
      "scanner.hidPos.continuedOffset",
    ],
    [
      "data area beyond the report",
      HW,
      set("/scanner/hidPos/maxDataPerReport", 60),
      "scanner.hidPos.maxDataPerReport",
    ],
    ["hid-pos over serial", HW, set("/transport", serial), "transport.type"],
    [
      "alt-numpad without a code page",
      WEDGE,
      set("/scanner/keyboard/altNumpad", true),
      "scanner.keyboard.altNumpadAbove127",
    ],
    [
      "wedge that can never end a scan",
      WEDGE,
      both(set("/scanner/framing/suffix", ""), del("/scanner/keyboard/idleTerminatorMs")),
      "scanner.framing.suffix",
    ],
    [
      "bad ctrlMap key",
      WEDGE,
      set("/scanner/keyboard/ctrlMap", { "ctrl+]": "\u001d" }),
      "scanner.keyboard.ctrlMap.ctrl+]",
    ],
    ["serial scanner without suffix", SER, del("/scanner/framing/suffix"), "scanner.framing.suffix"],
    [
      "provenance pointing nowhere",
      SER,
      set("/provenance/~1scanner~1framing~1sufix", "SRC 19"),
      "provenance./scanner/framing/sufix",
    ],
    [
      "provenance without a source",
      SER,
      set("/provenance/~1transport", "the vendor said so"),
      "provenance./transport",
    ],
    ["ascii layout the codec lacks", SX, set("/ptl/asciiFixed/fields/0/width", 2), "ptl.asciiFixed.fields"],
    ["unpaired delimiters", SX, set("/ptl/asciiFixed/stop", ")"), "ptl.asciiFixed.stop"],
    ["atop without its codec body", ATOP, del("/ptl/atopCcb"), "ptl.atopCcb"],
    ["address range upside down", ATOP, set("/ptl/addressing/min", 300), "ptl.addressing.min"],
    ["channel naming no point", DELTA, set("/sensor/channels/1/point", "beams"), "sensor.channels.1.point"],
    ["beam beyond the point", DELTA, set("/sensor/channels/0/bit", 33), "sensor.channels.0.bit"],
    [
      "channel on a register point",
      DELTA,
      set("/sensor/channels/0/point", "model"),
      "sensor.channels.0.point",
    ],
    ["input beyond the point", DI, set("/sensor/channels/0/bit", 16), "sensor.channels.0.bit"],
    ["duplicate channel name", DI, set("/sensor/channels/1/name", "bin-1-confirm"), "sensor.channels.1.name"],
    ["unit id out of range", DI, set("/sensor/modbus/unitId", 248), "sensor.modbus.unitId"],
    ["zpl over serial", "zebra-zpl-raw-203.json", set("/transport", serial), "transport.type"],
    ["cups without a queue", "cups-thermal-4x6-pdf.json", del("/printer/cups"), "printer.cups"],
  ];

  it.each(cases)("%s (%s)", (_name, file, mutate, path) => {
    const json = readProfileJson(file);
    expect(() => validateProfile(file, json)).not.toThrow();
    mutate(json);
    const err = refusal(() => validateProfile(file, json));
    expect(err.code).toBe("validation_failed");
    expect(err.details?.file).toBe(file);
    expect(err.errors.map((e) => e.path)).toContain(path);
    expect(err.errors.every((e) => e.message.length > 0)).toBe(true);
    expect(err.message).toContain(file);
    expect(err.message).toContain(err.errors[0]?.path ?? "?");
  });

  it("refuses two files with the same profile id", () => {
    const profile = validateProfile("a/sortexx-ascii.json", readProfileJson("sortexx-ascii.json"));
    const err = refusal(() =>
      indexProfiles([
        { file: "a/sortexx-ascii.json", profile },
        { file: "b/sortexx-ascii.json", profile },
      ]),
    );
    expect(err.details?.file).toBe("b/sortexx-ascii.json");
    expect(err.errors[0]?.path).toBe("profileId");
  });

  it("refuses text that is not JSON, naming the file", () => {
    const err = refusal(() => parseProfileText("broken.json", "{ not json"));
    expect(err.details?.file).toBe("broken.json");
    expect(err.errors[0]?.path).toBe("(root)");
  });
});
