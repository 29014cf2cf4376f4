/**
 * Handing a training seat's own bins between the stations (docs/station.md#bins-of-a-seat): the
 * station's light commands for them are held and kept, the training's reach the real lights, entering
 * shows the training's state, leaving writes the station's back (never an error flash) and frees the
 * bins for orders; shared bins are never touched.
 */
import pino from "pino";
import { describe, expect, it } from "vitest";
import { createTrainingDevices } from "../../../src/app/training-devices.js";
import type { LightCommand } from "../../../src/devices/hub.types.js";
import { validateStation } from "../../../src/devices/station-file/station-file.js";
import { createTopology } from "../../../src/station/topology.js";

const topology = createTopology(
  validateStation(
    "station.yaml",
    {
      station: {
        seats: ["front", "back"],
        bins: [
          { id: "1", seat: "front", light: { device: "ptl", address: "a1" } },
          { id: "2", light: { device: "ptl", address: "a2" } },
        ],
      },
      devices: [{ id: "ptl", kind: "ptl-controller", profile: "sim", transport: "sim" }],
    },
    new Map(),
  ),
);

function rig() {
  const sent: LightCommand[] = [];
  const seats = new Set<string>();
  let freed = 0;
  const devices = createTrainingDevices({
    hub: { light: async (cmd) => void sent.push(cmd) },
    topology,
    seats: () => seats,
    binsFreed: () => freed++,
    log: pino({ level: "silent" }),
  });
  return { sent, seats, devices, freed: () => freed };
}
const show = (address: string, quantity: number): LightCommand => ({
  deviceId: "ptl",
  address,
  mode: "show",
  color: "green",
  quantity,
});

describe("a training seat's bins between the stations", () => {
  it("holds the station's commands for a training seat's bin only, and writes the last one back on leaving", () => {
    const { sent, seats, devices, freed } = rig();
    expect(devices.hold(show("a1", 1))).toBe(false);
    seats.add("front");
    devices.entered("front");
    // nothing practised yet: front's bin goes dark, the shared bin is not touched
    expect(sent).toEqual([{ deviceId: "ptl", address: "a1", mode: "off" }]);
    expect(devices.held()).toEqual(new Set(["1"]));
    expect(devices.hold(show("a1", 5))).toBe(true);
    expect(devices.hold({ deviceId: "ptl", address: "a1", mode: "error" })).toBe(true);
    expect(devices.hold(show("a2", 2))).toBe(false);
    sent.length = 0;
    seats.delete("front");
    devices.left("front");
    expect(sent).toEqual([show("a1", 5)]);
    expect(freed()).toBe(1);
    expect(devices.held()).toEqual(new Set());
  });

  it("the training's commands reach the real light of a training seat's bin, and show again on entering", () => {
    const { sent, seats, devices } = rig();
    devices.practised("1", { deviceId: "sim-ptl", address: "1", mode: "show", color: "green", quantity: 2 });
    // front is not in training yet: nothing reaches the real lights
    expect(sent).toEqual([]);
    seats.add("front");
    devices.entered("front");
    expect(sent).toEqual([show("a1", 2)]);
    devices.practised("2", { deviceId: "sim-ptl", address: "2", mode: "show", color: "green", quantity: 1 });
    devices.practised("1", { deviceId: "sim-ptl", address: "1", mode: "error" });
    expect(sent.slice(1)).toEqual([{ deviceId: "ptl", address: "a1", mode: "error" }]);
    // a start over: the last practice is gone
    devices.closing();
    sent.length = 0;
    devices.opened();
    expect(sent).toEqual([{ deviceId: "ptl", address: "a1", mode: "off" }]);
  });
});
