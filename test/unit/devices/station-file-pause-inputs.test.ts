/**
 * Pause inputs in the station file (docs/station.md#pausing-a-seat): a bin-sensor channel of role
 * `pause`, holding seats the file has; each wrong one refused with its path, and the topology's answer
 * for a good one.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { parseStationText, validateStation } from "../../../src/devices/station-file/station-file.js";
import { isAppError } from "../../../src/domain/errors.js";
import { createTopology } from "../../../src/station/topology.js";
import { type Profiles, testProfiles } from "../../support/devices/harness.js";
import { good } from "../../support/devices/station-fixture.js";
import { doc } from "../../support/readme.js";

let profiles: Profiles;
beforeAll(async () => {
  profiles = await testProfiles();
});

type PauseInputs = Array<{ device: string; channel: string; seats?: string[]; reason?: string }>;
const withPauses = (pauseInputs: PauseInputs) => {
  const s = good();
  return { ...s, station: { ...s.station, pauseInputs } };
};

function errorsOf(pauseInputs: PauseInputs): Record<string, string> {
  try {
    validateStation("station.yaml", withPauses(pauseInputs), profiles);
  } catch (e) {
    if (!isAppError(e)) throw e;
    return Object.fromEntries(e.errors.map((x) => [x.path, x.message]));
  }
  throw new Error("expected the station file to be refused");
}

describe("pause inputs", () => {
  it("the station file of docs/station.md#station-devices validates, its e-stop a pause input of seat front", () => {
    const yaml = /```yaml\n(station:[\s\S]*?)```/.exec(doc("docs/station.md"))?.[1] ?? "";
    const def = parseStationText("docs/station.md", yaml, profiles);
    expect(def.station.pauseInputs).toEqual([
      { device: "di", channel: "estop", seats: ["front"], reason: "Emergency stop pressed" },
    ]);
  });

  it("a pause channel of a DI module is taken; the topology knows it, its seats and its reason", () => {
    const def = validateStation(
      "station.yaml",
      withPauses([{ device: "di", channel: "estop", seats: ["front"], reason: "Emergency stop" }]),
      profiles,
    );
    const topology = createTopology(def);
    const estop = { type: "sensor", deviceId: "di", channel: "estop", active: true, at: 0 } as const;
    expect(topology.pauseInputOf(estop)).toEqual({
      device: "di",
      channel: "estop",
      seats: ["front"],
      reason: "Emergency stop",
    });
    expect(topology.binOf(estop)).toBeNull();
    expect(topology.pauseInputOf({ ...estop, channel: "bin-1-present" })).toBeNull();
  });

  it("without seats it holds every seat, with a reason naming the channel", () => {
    const topology = createTopology(
      validateStation("s.yaml", withPauses([{ device: "di", channel: "estop" }]), profiles),
    );
    expect(
      topology.pauseInputOf({ type: "sensor", deviceId: "di", channel: "estop", active: true, at: 0 }),
    ).toEqual({
      device: "di",
      channel: "estop",
      seats: ["front", "back"],
      reason: "estop is active",
    });
  });

  it.each([
    [
      "a channel that is no pause input",
      [{ device: "di", channel: "bin-1-present" }],
      "station.pauseInputs.0.channel",
      "is a presence input, not a pause input",
    ],
    [
      "a channel the profile lacks",
      [{ device: "di", channel: "e-stop" }],
      "station.pauseInputs.0.channel",
      "profile modbus-di-16 has no channel e-stop",
    ],
    [
      "a device that is not there",
      [{ device: "dio", channel: "estop" }],
      "station.pauseInputs.0.device",
      "names no device (dio)",
    ],
    [
      "a device that is no bin sensor",
      [{ device: "ptl", channel: "estop" }],
      "station.pauseInputs.0.device",
      "ptl is a ptl-controller, not a bin-sensor",
    ],
    [
      "a seat the station lacks",
      [{ device: "di", channel: "estop", seats: ["side"] }],
      "station.pauseInputs.0.seats.0",
      "names no seat (side)",
    ],
    [
      "the same input twice",
      [
        { device: "di", channel: "estop" },
        { device: "di", channel: "estop" },
      ],
      "station.pauseInputs.1.channel",
      "is listed twice",
    ],
  ])("refuses %s, naming the path", (_what, inputs, path, message) => {
    expect(errorsOf(inputs)[path]).toBe(message);
  });

  it("a pause input is not a bin's button", () => {
    const s = good();
    s.station.bins[1] = {
      ...s.station.bins[1],
      button: { device: "di", channel: "estop" },
    } as (typeof s.station.bins)[1];
    try {
      validateStation("s.yaml", s, profiles);
      throw new Error("expected a refusal");
    } catch (e) {
      if (!isAppError(e)) throw e;
      expect(e.errors).toContainEqual({ path: "station.bins.1.button.channel", message: "is a pause input" });
    }
  });
});
