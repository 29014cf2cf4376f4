/**
 * The station topology: the embedded default station, which of the config and the file decides seats
 * and bins, and where each device event belongs (order bins and the IRT bin, scanners and seats).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_BINS, DEFAULT_SEATS } from "../../../src/config/config.schema.js";
import { loadStation, validateStation } from "../../../src/devices/station-file/station-file.js";
import { createTopology, stationSeatsAndBins } from "../../../src/station/topology.js";
import { type Profiles, testProfiles } from "../../support/devices/harness.js";
import { good } from "../../support/devices/station-fixture.js";

let profiles: Profiles;
beforeAll(async () => {
  profiles = await testProfiles();
});

describe("the embedded station and precedence", () => {
  const config = (over: { seats?: string[]; bins?: string[]; site?: string; ppsId?: string } = {}) => ({
    site: over.site ?? "dc1",
    ppsId: over.ppsId ?? "7",
    station: { seats: over.seats ?? DEFAULT_SEATS, bins: over.bins ?? DEFAULT_BINS },
  });
  const defaults = { seats: DEFAULT_SEATS, bins: DEFAULT_BINS };

  it("without a file: simulated light per bin at address = bin id, a sensor channel per bin, a scanner per seat", async () => {
    const loaded = await loadStation({ seats: ["front", "back"], bins: ["1", "2"] });
    expect(loaded.source).toBeNull();
    const { station, devices } = loaded.definition;
    expect(station.bins).toEqual([
      {
        id: "1",
        light: { device: "sim-ptl", address: "1" },
        sensor: { device: "sim-sensors", channel: "bin-1" },
      },
      {
        id: "2",
        light: { device: "sim-ptl", address: "2" },
        sensor: { device: "sim-sensors", channel: "bin-2" },
      },
    ]);
    expect(devices.map((d) => [d.id, d.kind, d.transport.type, d.seat ?? null])).toEqual([
      ["sim-ptl", "ptl-controller", "sim", null],
      ["sim-sensors", "bin-sensor", "sim", null],
      ["sim-scanner-front", "scanner", "sim", "front"],
      ["sim-scanner-back", "scanner", "sim", "back"],
    ]);
    expect(stationSeatsAndBins(config({ bins: ["1", "2"] }), loaded, defaults)).toEqual({
      seats: ["front", "back"],
      bins: ["1", "2"],
    });
  });

  it("with a file: its seats and bins win over the config's defaults", () => {
    const loaded = { source: "s.yaml", definition: validateStation("s.yaml", good(), profiles), profiles };
    expect(stationSeatsAndBins(config(), loaded, defaults)).toEqual({
      seats: ["front", "back"],
      bins: ["1", "2"],
    });
    expect(stationSeatsAndBins(config({ bins: ["1", "2"] }), loaded, defaults).bins).toEqual(["1", "2"]);
  });

  it.each([
    ["bins set in the config too, differently", { bins: ["1", "2", "3"] }, "station.bins"],
    ["seats set in the config too, differently", { seats: ["front"] }, "station.seats"],
    ["another site", { site: "dc2" }, "station.site"],
    ["another ppsId", { ppsId: "8" }, "station.ppsId"],
  ])("refuses a file and a config that disagree: %s", (_what, over, path) => {
    const loaded = { source: "s.yaml", definition: validateStation("s.yaml", good(), profiles), profiles };
    expect(() => stationSeatsAndBins(config(over), loaded, defaults)).toThrow(
      new RegExp(`station file s\\.yaml: ${path.replace(".", "\\.")}`),
    );
  });
});

describe("where device events belong", () => {
  const at = 0;
  const topology = () => createTopology(validateStation("s.yaml", good(), profiles));

  it("resolves lights, DI inputs and sensor channels to order bins, once, from the file", () => {
    const top = topology();
    expect(top.seats).toEqual(["front", "back"]);
    expect(top.bins).toEqual(["1", "2"]);
    expect(top.binOf({ type: "button", deviceId: "ptl", address: "001001", button: "confirm", at })).toBe(
      "1",
    );
    expect(top.binOf({ type: "button", deviceId: "atop", address: "5", button: "shortage", at })).toBe("2");
    expect(
      top.binOf({ type: "button", deviceId: "di", address: "bin-2-confirm", button: "confirm", at }),
    ).toBe("2");
    expect(
      top.binOf({ type: "sensor", deviceId: "curtain", channel: "bin-A1-present", active: true, at }),
    ).toBe("1");
    expect(top.binOf({ type: "button", deviceId: "atop", address: "6", button: "confirm", at })).toBeNull();
    expect(top.binOf({ type: "scan", deviceId: "scanner-front", value: "x", at })).toBeNull();
    expect(top.binLight("2")).toEqual({ device: "atop", address: "5" });
    expect(top.binOfLight("ptl", "001001")).toBe("1");
  });

  it("resolves the IRT bin's light as its controller reports it (address 010 in the file, node 10 on the wire)", () => {
    const top = topology();
    expect(top.irtBin).toBe("IRT");
    expect(top.bins).not.toContain("IRT");
    expect(top.binOf({ type: "button", deviceId: "atop", address: "10", button: "confirm", at })).toBe("IRT");
    expect(top.binLight("IRT")).toEqual({ device: "atop", address: "10" });
    expect(top.bin("IRT")?.light).toEqual({ device: "atop", address: "10" });
    // a refusal that concerns no bin is signalled on the IRT bin's light, never on an order bin's
    expect(top.signalBin()).toBe("IRT");
    expect(top.signalLight()).toEqual({ device: "atop", address: "10" });
  });

  it("gives a scan its scanner's seat, and a seat its scanners; a station with one seat takes every scan", async () => {
    const top = topology();
    expect(top.seatOf("scanner-front")).toBe("front");
    expect(top.seatOf("scanner-back")).toBe("back");
    expect(top.seatOf("atop")).toBeNull();
    expect(top.scannersOf("front")).toEqual(["scanner-front"]);
    expect(top.scannersOf("back")).toEqual(["scanner-back"]);
    expect(top.scannersOf("side")).toEqual([]);
    const one = await loadStation({ seats: ["front"], bins: ["1"] });
    const single = createTopology({
      ...one.definition,
      devices: [
        ...one.definition.devices,
        { id: "no-seat", kind: "scanner", profile: "sim", transport: { type: "sim" } },
      ],
    });
    expect(single.seatOf("any-scanner")).toBe("front");
    expect(single.scannersOf("front")).toEqual(["sim-scanner-front", "no-seat"]);
  });
});
