/**
 * Bins of a seat (docs/station.md#bins-of-a-seat): the station file's `bins[].seat` is checked at load, a
 * one-seat station's bins are that seat's, and while a seat trains its own bins' light, button and beam
 * are the training station's; shared bins, the IRT bin, pause inputs and scans stay the station's.
 */
import { describe, expect, it } from "vitest";
import type { DeviceEvent } from "../../../src/devices/hub.types.js";
import { validateStation } from "../../../src/devices/station-file/station-file.js";
import { isAppError } from "../../../src/domain/errors.js";
import { createTopology } from "../../../src/station/topology.js";
import {
  trainingBinOfLight,
  trainingInputOf,
  trainingSeatOfBin,
} from "../../../src/station/training-bins.js";

const sim = { profile: "sim", transport: "sim" };
function station(seats: string[], bins: Record<string, unknown>[], irtBin?: Record<string, unknown>) {
  return {
    station: {
      seats,
      bins,
      ...(irtBin ? { irtBin } : {}),
      pauseInputs: [{ device: "di", channel: "estop" }],
    },
    devices: [
      { id: "ptl", kind: "ptl-controller", ...sim },
      { id: "di", kind: "bin-sensor", ...sim },
    ],
  };
}
const bin = (id: string, seat?: string) => ({
  id,
  light: { device: "ptl", address: id },
  sensor: { device: "di", channel: `beam-${id}` },
  button: { device: "di", channel: `button-${id}` },
  ...(seat ? { seat } : {}),
});
const load = (raw: unknown) => validateStation("station.yaml", raw, new Map());
const errorsOf = (raw: unknown) => {
  try {
    load(raw);
  } catch (e) {
    if (isAppError(e)) return { message: e.message, errors: e.errors };
  }
  return null;
};
const two = () =>
  createTopology(
    load(station(["front", "back"], [bin("1", "front"), bin("2", "back"), bin("3")], bin("IRT"))),
  );
const at = 0;

describe("the seat of a bin in the station file", () => {
  it("an unknown seat is refused at load, naming the bin's path", () => {
    const bad = errorsOf(station(["front", "back"], [bin("1", "front"), bin("2", "side")]));
    expect(bad?.errors).toEqual([
      { path: "station.bins.1.seat", message: "names no seat of station.seats (side)" },
    ]);
    expect(bad?.message).toContain("station.bins.1.seat");
  });

  it("the IRT bin belongs to no seat", () => {
    const bad = errorsOf(station(["front"], [bin("1")], bin("IRT", "front")));
    expect(bad?.errors.map((e) => e.path)).toEqual(["station.irtBin.seat"]);
  });

  it("a seat that is not an id is refused by the schema", () => {
    const bad = errorsOf(station(["front"], [{ ...bin("1"), seat: "no spaces" }]));
    expect(bad?.errors.map((e) => e.path)).toEqual(["station.bins.0.seat"]);
  });

  it("binsOf: a seat's own bins; a bin without a seat is shared; the IRT bin is nobody's", () => {
    const t = two();
    expect(t.binsOf("front")).toEqual(["1"]);
    expect(t.binsOf("back")).toEqual(["2"]);
    expect(t.seatOfBin("3")).toBeNull();
    expect(t.seatOfBin("IRT")).toBeNull();
    expect(t.seatOfBin("nope")).toBeNull();
  });

  it("on a one-seat station every bin is that seat's", () => {
    const t = createTopology(load(station(["solo"], [bin("1"), bin("2", "solo")], bin("IRT"))));
    expect(t.binsOf("solo")).toEqual(["1", "2"]);
    expect(t.seatOfBin("IRT")).toBeNull();
  });
});

describe("which station a bin's devices belong to", () => {
  const t = two();
  const front = new Set(["front"]);
  const button = (address: string): DeviceEvent => ({
    type: "button",
    deviceId: "ptl",
    address,
    button: "shortage",
    at,
  });
  const sensor = (channel: string, active: boolean): DeviceEvent => ({
    type: "sensor",
    deviceId: "di",
    channel,
    active,
    at,
  });

  it("a bin of a seat in training is that seat's; others are the station's", () => {
    expect(trainingSeatOfBin(t, front, "1")).toBe("front");
    expect(trainingSeatOfBin(t, front, "2")).toBeNull();
    expect(trainingSeatOfBin(t, front, "3")).toBeNull();
    expect(trainingSeatOfBin(t, new Set(["front", "back"]), "2")).toBe("back");
    expect(trainingSeatOfBin(t, new Set(), "1")).toBeNull();
  });

  it("a press, a beam and a DI button of a training seat's bin go to the training station", () => {
    expect(trainingInputOf(t, front, button("1"))).toEqual({
      kind: "press",
      seat: "front",
      binId: "1",
      button: "shortage",
    });
    expect(trainingInputOf(t, front, sensor("beam-1", true))).toEqual({
      kind: "beam",
      seat: "front",
      binId: "1",
      active: true,
    });
    expect(trainingInputOf(t, front, { ...button("button-1"), deviceId: "di" })).toEqual({
      kind: "press",
      seat: "front",
      binId: "1",
      button: "shortage",
    });
    expect(trainingInputOf(t, front, sensor("beam-1", false))).toEqual({
      kind: "beam",
      seat: "front",
      binId: "1",
      active: false,
    });
  });

  it("the other seat's bin, a shared bin, the IRT bin, a pause input and a scan stay the station's", () => {
    expect(trainingInputOf(t, front, button("2"))).toBeNull();
    expect(trainingInputOf(t, front, button("3"))).toBeNull();
    expect(trainingInputOf(t, front, button("IRT"))).toBeNull();
    expect(trainingInputOf(t, front, sensor("estop", true))).toBeNull();
    expect(trainingInputOf(t, front, sensor("beam-9", true))).toBeNull();
    expect(trainingInputOf(t, front, { type: "scan", deviceId: "x", value: "A", at })).toBeNull();
    expect(trainingInputOf(t, new Set(), button("1"))).toBeNull();
  });

  it("the station's light commands for a training seat's bin are the training's", () => {
    expect(trainingBinOfLight(t, front, { deviceId: "ptl", address: "1" })).toBe("1");
    expect(trainingBinOfLight(t, front, { deviceId: "ptl", address: "2" })).toBeNull();
    expect(trainingBinOfLight(t, front, { deviceId: "ptl", address: "3" })).toBeNull();
    expect(trainingBinOfLight(t, front, { deviceId: "other", address: "1" })).toBeNull();
    expect(trainingBinOfLight(t, new Set(), { deviceId: "ptl", address: "1" })).toBeNull();
  });
});
