/** The shipped profiles drive the codecs: recorded captures decode with options taken from the files. */
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { toHex } from "../../../../src/devices/codecs/bytes.js";
import { withCrc } from "../../../../src/devices/codecs/crc16-modbus.js";
import { scanInterpretOptions } from "../../../../src/devices/codecs/scan-event.js";
import { interpretScan } from "../../../../src/devices/codecs/scan-interpret.js";
import { AtopCcbEncoder } from "../../../../src/devices/drivers/atop-ccb/atop-ccb.codec.js";
import { AtopCcbParser } from "../../../../src/devices/drivers/atop-ccb/atop-ccb.parser.js";
import { atopCcbOptions } from "../../../../src/devices/drivers/atop-ccb/atop-ccb.profile.js";
import { HidKeyboardDecoder } from "../../../../src/devices/drivers/hid-keyboard/hid-keyboard.codec.js";
import { hidKeyboardOptions } from "../../../../src/devices/drivers/hid-keyboard/hid-keyboard.profile.js";
import { HidPosDecoder } from "../../../../src/devices/drivers/hid-pos/hid-pos.codec.js";
import { hidPosLayout } from "../../../../src/devices/drivers/hid-pos/hid-pos.profile.js";
import { modbusParserOptions } from "../../../../src/devices/drivers/modbus-rtu/modbus-device.js";
import { encodeReadRequest } from "../../../../src/devices/drivers/modbus-rtu/modbus-rtu.codec.js";
import { ModbusRtuParser } from "../../../../src/devices/drivers/modbus-rtu/modbus-rtu.parser.js";
import { readChannelBit } from "../../../../src/devices/drivers/modbus-sensor/modbus-points.js";
import { SerialScannerParser } from "../../../../src/devices/drivers/serial-scanner/serial-scanner.codec.js";
import { serialScannerOptions } from "../../../../src/devices/drivers/serial-scanner/serial-scanner.profile.js";
import { decodeSortexx } from "../../../../src/devices/drivers/sortexx/sortexx.codec.js";
import { sortexxResults } from "../../../../src/devices/drivers/sortexx/sortexx.profile.js";
import { SortexxAckTracker } from "../../../../src/devices/drivers/sortexx/sortexx-ack.js";
import type {
  FirmwareProfile,
  PtlProfile,
  ScannerProfile,
  SensorProfile,
} from "../../../../src/devices/profiles/firmware-profile.schema.js";
import { loadProfiles } from "../../../../src/devices/profiles/load-profiles.js";
import { ascii, hex, hexFixture } from "../../../support/devices/streams.js";

let profiles: Map<string, FirmwareProfile>;
beforeAll(async () => {
  profiles = await loadProfiles(fileURLToPath(new URL("../../../../firmware-profiles/", import.meta.url)));
});

function get<K extends FirmwareProfile["kind"]>(id: string, kind: K): Extract<FirmwareProfile, { kind: K }> {
  const p = profiles.get(id);
  if (p?.kind !== kind) throw new Error(`profile ${id} is not a ${kind}`);
  return p as Extract<FirmwareProfile, { kind: K }>;
}

describe("scanner profiles", () => {
  it("honeywell-hidpos decodes the recorded Honeywell reports", () => {
    const decoder = new HidPosDecoder(hidPosLayout(get("honeywell-hidpos", "scanner")));
    const scans = hexFixture("honeywell-revinf.hidpos.hex").flatMap((r) => decoder.push(r));
    expect(scans.map((s) => (s.type === "scan" ? [s.aim, s.reports] : s.reason))).toEqual([
      ["]X0", 6],
      ["]Z6", 1],
    ]);
  });

  it("generic-wedge-us decodes the recorded wedge capture", () => {
    const decoder = new HidKeyboardDecoder(hidKeyboardOptions(get("generic-wedge-us", "scanner")));
    const events = hexFixture("wedge-6957842208856.hex").flatMap((r, i) => decoder.push(r, i * 4));
    expect(events).toEqual([{ type: "scan", text: "6957842208856", terminatedBy: "suffix" }]);
  });

  it("serial-scanner-cr splits CR-terminated scans and leaves GS1 parsing to the interpreter", () => {
    const p: ScannerProfile = get("serial-scanner-cr", "scanner");
    const parser = new SerialScannerParser(serialScannerOptions(p));
    const events = parser.push(ascii("0109501101530003\x1d10LOT\r"));
    const [scan] = events;
    if (scan?.type !== "scan") throw new Error("expected a scan");
    const seen = interpretScan(scan.text, scanInterpretOptions(p));
    expect(seen.gs1?.ok && seen.gs1.elements.map((e) => e.ai)).toEqual(["01", "10"]);
  });
});

describe("put-to-light profiles", () => {
  it("atop-at500-ccb builds the worked display frame and parses tag events", () => {
    const opts = atopCcbOptions(get("atop-at500-ccb", "ptl-controller"));
    expect(toHex(new AtopCcbEncoder(opts.encoder).display(5, "12"))).toBe(
      "0f 00 60 00 00 00 00 05 00 00 00 00 31 32 00",
    );
    const events = new AtopCcbParser(opts.parser).push(hex("0e 00 60 00 00 00 06 05 00 00 00 00 31 32"));
    expect(events).toMatchObject([{ type: "event", kind: "confirm", node: 5, text: "12" }]);
  });

  it("sortexx-ascii reads the operator's confirmation with its result characters", () => {
    const p: PtlProfile = get("sortexx-ascii", "ptl-controller");
    const tracker = new SortexxAckTracker(sortexxResults(p));
    const kinds = ["<00100512C>", "<001005120>"].map((t) => {
      const f = decodeSortexx(ascii(t));
      if (f === null) throw new Error(t);
      return tracker.classify(f).kind;
    });
    expect(kinds).toEqual(["awaiting-ack", "confirmed"]);
  });
});

describe("sensor profiles", () => {
  /** Polls one point the way the adapter will: request from the profile, reply through the parser, channels read. */
  function poll(p: SensorProfile, reply: Uint8Array): Record<string, boolean> {
    const map = p.sensor.modbus;
    if (map === undefined) throw new Error("no modbus map");
    const parser = new ModbusRtuParser(modbusParserOptions(p));
    const [event] = parser.push(reply, 0);
    if (event?.type !== "frame" || event.message.kind !== "read") throw new Error("expected a read response");
    const data = event.message.data;
    const out: Record<string, boolean> = {};
    for (const ch of p.sensor.channels) {
      const pt = map.points[ch.point];
      if (pt?.type !== "bits" && pt?.type !== "bits-msb-first") throw new Error(ch.point);
      out[ch.name] = readChannelBit(pt.type, data, pt.count ?? 1, ch.bit) === ch.activeWhen;
    }
    return out;
  }

  it("delta-as-ba-modbus: request matches the manual and shaded beams mean a bin is present", () => {
    const p = get("delta-as-ba-modbus", "bin-sensor");
    const pt = p.sensor.modbus?.points.rxBeams1to32;
    if (pt === undefined || pt.fc !== 3) throw new Error("point");
    expect(toHex(encodeReadRequest(p.sensor.modbus?.unitId ?? 0, 3, pt.address, pt.count ?? 1))).toBe(
      "01 03 00 50 00 04 44 18",
    );
    // beams 7-22 shaded: beam 9 (bin A2) is blocked, beam 1 (bin A1) is clear
    expect(poll(p, hex("01 03 08 02 3f 02 00 02 c0 02 1f 9b c3"))).toEqual({
      "bin-A1-present": false,
      "bin-A2-present": true,
    });
  });

  it("modbus-di-16: FC02 inputs map to confirm buttons and presence", () => {
    const p = get("modbus-di-16", "bin-sensor");
    const pt = p.sensor.modbus?.points.inputs;
    expect(pt).toMatchObject({ fc: 2, type: "bits" });
    // inputs 0 and 9 on: bin-1 confirm pressed, bin-2 present; input 15 off: the e-stop's normally
    // closed contact is open, so the pause input is active
    const state = poll(p, withCrc(hex("02 02 02 01 02")));
    expect(
      Object.entries(state)
        .filter(([, on]) => on)
        .map(([name]) => name),
    ).toEqual(["bin-1-confirm", "bin-2-present", "estop"]);
    expect(poll(p, withCrc(hex("02 02 02 01 82"))).estop).toBe(false);
  });
});
