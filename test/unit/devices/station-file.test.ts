/**
 * The station file refused with the file, the dotted path and the reason (like a bad config or profile).
 * The embedded default station and which of the config and the file decides seats and bins:
 * test/unit/station/topology.test.ts.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { parseStationText, validateStation } from "../../../src/devices/station-file/station-file.js";
import { isAppError } from "../../../src/domain/errors.js";
import { type Profiles, testProfiles } from "../../support/devices/harness.js";
import { good } from "../../support/devices/station-fixture.js";

let profiles: Profiles;
beforeAll(async () => {
  profiles = await testProfiles();
});

/** Applies `change` to a good station, validates, returns the refusal's path -> message. */
function refused(change: (s: ReturnType<typeof good>) => void): {
  message: string;
  errors: Record<string, string>;
  file: unknown;
} {
  const s = good();
  change(s);
  try {
    validateStation("/etc/pps-edge/station.yaml", s, profiles);
  } catch (e) {
    if (!isAppError(e)) throw e;
    return {
      message: e.message,
      errors: Object.fromEntries(e.errors.map((x) => [x.path, x.message])),
      file: e.details?.file,
    };
  }
  throw new Error("expected the station file to be refused");
}

describe("station file validation", () => {
  it("accepts the documented shape (docs/architecture.md#station-file) and makes light addresses canonical", () => {
    const def = validateStation("station.yaml", good(), profiles);
    expect(def.station.bins.map((b) => b.light?.address)).toEqual(["001001", "5"]);
    expect(def.station.irtBin?.light?.address).toBe("10");
    expect(def.devices.find((d) => d.id === "scanner-back")?.transport).toEqual({
      type: "hid",
      vendorId: 0x0c2e,
      usagePage: 140,
      usage: 2,
    });
    expect(def.devices[0]?.transport).toEqual({
      type: "serial",
      path: "/dev/serial/by-id/usb-Scanner-if00",
      baudRate: 9600,
    });
  });

  it.each([
    [
      "an unknown profile",
      (s: ReturnType<typeof good>) => {
        (s.devices[1] as { profile: string }).profile = "sortex";
      },
      "devices.1.profile",
      /unknown profile 'sortex'/,
    ],
    [
      "a profile of another kind",
      (s: ReturnType<typeof good>) => {
        (s.devices[0] as { kind: string }).kind = "ptl-controller";
      },
      "devices.0.profile",
      /is for a scanner, not a ptl-controller/,
    ],
    [
      "a transport the profile does not speak",
      (s: ReturnType<typeof good>) => {
        (s.devices[5] as { transport: unknown }).transport = { serial: "/dev/ttyUSB0" };
      },
      "devices.5.transport",
      /speaks hid, not serial/,
    ],
    [
      "a bin light naming an unknown device",
      (s: ReturnType<typeof good>) => {
        (s.station.bins[0] as { light: { device: string } }).light.device = "ptl2";
      },
      "station.bins.0.light.device",
      /names no device \(ptl2\)/,
    ],
    [
      "a light on a scanner",
      (s: ReturnType<typeof good>) => {
        (s.station.bins[0] as { light: { device: string } }).light.device = "scanner-front";
      },
      "station.bins.0.light.device",
      /is a scanner, not a ptl-controller/,
    ],
    [
      "a broadcast SorTexx address",
      (s: ReturnType<typeof good>) => {
        (s.station.bins[0] as { light: { address: string } }).light.address = "001000";
      },
      "station.bins.0.light.address",
      /broadcast/,
    ],
    [
      "an Atop node out of range",
      (s: ReturnType<typeof good>) => {
        (s.station.bins[1] as { light: { address: number } }).light.address = 251;
      },
      "station.bins.1.light.address",
      /must be 1\.\.250/,
    ],
    [
      "a sensor channel the profile lacks",
      (s: ReturnType<typeof good>) => {
        (s.station.bins[0] as { sensor: { channel: string } }).sensor.channel = "bin-Z9";
      },
      "station.bins.0.sensor.channel",
      /has no channel bin-Z9/,
    ],
    [
      "a presence input used as a button",
      (s: ReturnType<typeof good>) => {
        (s.station.bins[1] as { button: { channel: string } }).button.channel = "bin-2-present";
      },
      "station.bins.1.button.channel",
      /presence input/,
    ],
    [
      "a scanner seat that is not a seat",
      (s: ReturnType<typeof good>) => {
        (s.devices[0] as { seat: string }).seat = "side";
      },
      "devices.0.seat",
      /names no seat/,
    ],
    [
      "a serial path shared with a non-Modbus device",
      (s: ReturnType<typeof good>) => {
        (s.devices[1] as { transport: { serial: string } }).transport.serial =
          "/dev/serial/by-id/usb-Scanner-if00";
      },
      "devices.1.transport.serial",
      /only Modbus devices share a bus/,
    ],
    [
      "a misspelt key",
      (s: ReturnType<typeof good>) => {
        (s.devices[4] as Record<string, unknown>).transport = { tcp: { host: "10.0.0.20", prot: 4660 } };
      },
      "devices.4.transport.tcp.prot",
      /unknown key/,
    ],
    [
      "a bad port",
      (s: ReturnType<typeof good>) => {
        (s.devices[4] as Record<string, unknown>).transport = { tcp: { host: "h", port: 70000 } };
      },
      "devices.4.transport.tcp.port",
      /./,
    ],
    [
      "a transport of no known form",
      (s: ReturnType<typeof good>) => {
        (s.devices[4] as Record<string, unknown>).transport = { usb: 1 };
      },
      "devices.4.transport",
      /expected sim/,
    ],
    [
      "two bins on one light",
      (s: ReturnType<typeof good>) => {
        (s.station.bins[1] as { light: unknown }).light = { device: "ptl", address: "001001" };
      },
      "station.bins.1.light.address",
      /also the light of bin 1/,
    ],
    [
      "two bins on one sensor channel",
      (s: ReturnType<typeof good>) => {
        (s.station.bins[1] as Record<string, unknown>).sensor = {
          device: "curtain",
          channel: "bin-A1-present",
        };
      },
      "station.bins.1.sensor.channel",
      /also the sensor of bin 1/,
    ],
    [
      "the IRT bin on an order bin's button",
      (s: ReturnType<typeof good>) => {
        (s.station.irtBin as Record<string, unknown>).button = { device: "di", channel: "bin-2-confirm" };
      },
      "station.irtBin.button.channel",
      /also the button of bin 2/,
    ],
    [
      "the sim profile on real hardware",
      (s: ReturnType<typeof good>) => {
        (s.devices[0] as { profile: string }).profile = "sim";
      },
      "devices.0.profile",
      /only for transport: sim/,
    ],
  ])("refuses %s, naming the file, the path and the reason", (_what, change, path, reason) => {
    const r = refused(change);
    expect(r.file).toBe("/etc/pps-edge/station.yaml");
    expect(r.message).toContain("station file /etc/pps-edge/station.yaml: ");
    expect(Object.keys(r.errors)).toContain(path);
    expect(r.errors[path]).toMatch(reason);
  });

  it("refuses text that is not YAML", () => {
    expect(() => parseStationText("s.yaml", "station: [unclosed", profiles)).toThrow(
      /station file s\.yaml: \(root\): not valid YAML/,
    );
  });
});
