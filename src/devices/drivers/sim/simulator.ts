/**
 * The simulator's one home, beside the simulated adapters: it drives the simulated devices among the
 * hub's (scans, button presses, sensor edges) and reads back what the simulated lights show, by device
 * (`simulatorOf`) or by bin, as the station file wires bins to devices (`binSimulator`: what
 * `pps-edge sim` and the station API's simulator routes call).
 */

import type { BinDefinition } from "../../../config/station-file.schema.js";
import { AppError } from "../../../domain/errors.js";
import type { LightCommand } from "../../hub.types.js";
import type { Adapters } from "../../hub-adapters.js";
import { SimLights, SimScanner, SimSensors } from "./sim.adapter.js";

/** Drives the simulated devices: what `pps-edge sim` and the station API's simulator call. */
export interface DeviceSimulator {
  /** A scan on the simulated scanner with this id, or of this seat. */
  scan(seatOrDeviceId: string, value: string): void;
  /** A button on a simulated light controller (`address` = the bin's light address). */
  press(deviceId: string, address: string, button?: "confirm" | "shortage"): void;
  /** A simulated sensor channel blocked (`true`) or clear; an event only when it changed. */
  sensor(deviceId: string, channel: string, active: boolean): void;
  /** The last light command each simulated light received, by device then address. */
  lights(): LightCommand[];
}

export function simulatorOf(adapters: Adapters): DeviceSimulator {
  function sim<T>(id: string, type: abstract new (...args: never[]) => T, what: string): T {
    const a = adapters.get(id);
    if (a instanceof type) return a;
    throw new AppError("not_found", `no simulated ${what} '${id}'`, [
      { path: "deviceId", message: `not a simulated ${what}` },
    ]);
  }

  return {
    scan(target, value) {
      for (const [id, a] of adapters) {
        if (a instanceof SimScanner && (id === target || a.seat === target)) return a.scan(value);
      }
      throw new AppError("not_found", `no simulated scanner '${target}'`, [
        { path: "scanner", message: "not a simulated scanner id or a seat with one" },
      ]);
    },
    press(deviceId, address, button = "confirm") {
      sim(deviceId, SimLights, "light controller").press(address, button);
    },
    sensor(deviceId, channel, active) {
      sim(deviceId, SimSensors, "sensor").set(channel, active);
    },
    lights() {
      const out: LightCommand[] = [];
      for (const a of adapters.values()) if (a instanceof SimLights) out.push(...a.current.values());
      return out;
    },
  };
}

/** Where the station file puts each bin's light, button and sensor (station/topology.ts answers it). */
export interface BinWiring {
  bin(ppsBinId: string): BinDefinition | null;
  binOfLight(device: string, address: string): string | null;
}

/** A device named directly, or a bin whose wiring names it. */
export interface SimTarget {
  ppsBinId?: string;
  device?: string;
  address?: string;
  channel?: string;
}

/** The simulator by bin: a press or beam on a bin reaches the device the station file wires to it. */
export function binSimulator(simulator: () => DeviceSimulator, wiring: BinWiring) {
  const binOf = (ppsBinId: string) => {
    const bin = wiring.bin(ppsBinId);
    if (!bin)
      throw new AppError("not_found", `no bin '${ppsBinId}'`, [{ path: "ppsBinId", message: "unknown bin" }]);
    return bin;
  };
  const none = (what: string) =>
    new AppError("not_found", `the bin has no ${what}`, [
      { path: "ppsBinId", message: `no ${what} declared` },
    ]);
  return {
    scan: (seat: string, barcode: string) => simulator().scan(seat, barcode),
    press(target: SimTarget, button: "confirm" | "shortage") {
      const s = simulator();
      if (target.device !== undefined) return s.press(target.device, target.address ?? "", button);
      const bin = binOf(target.ppsBinId ?? "");
      if (bin.light) return s.press(bin.light.device, bin.light.address, button);
      if (!bin.button) throw none("button");
      // a DI input: pressed, then let go, as a finger does
      s.sensor(bin.button.device, bin.button.channel, true);
      s.sensor(bin.button.device, bin.button.channel, false);
    },
    sensor(target: SimTarget, active: boolean) {
      const s = simulator();
      if (target.device !== undefined) return s.sensor(target.device, target.channel ?? "", active);
      const bin = binOf(target.ppsBinId ?? "");
      if (!bin.sensor) throw none("sensor");
      s.sensor(bin.sensor.device, bin.sensor.channel, active);
    },
    lights: () =>
      simulator()
        .lights()
        .map((l) => ({ ppsBinId: wiring.binOfLight(l.deviceId, l.address), ...l })),
  };
}
