/**
 * The simulator's one home, beside the simulated adapters: it drives the simulated devices among the
 * hub's (scans, button presses, sensor edges) and reads back what the simulated lights show, by device
 * (`simulatorOf`) or by seat and bin, as the station topology wires seats and bins to devices
 * (`binSimulator`: what `pps-edge sim`, the station API's simulator routes and the screen call).
 */

import type { BinDefinition } from "../../../config/station-file.schema.js";
import { AppError } from "../../../domain/errors.js";
import type { LightCommand } from "../../hub.types.js";
import type { Adapters } from "../../hub-adapters.js";
import { SimLights, SimScanner, SimSensors } from "./sim.adapter.js";

/** Drives the simulated devices: what `pps-edge sim` and the station API's simulator call. */
export interface DeviceSimulator {
  /** A scan on the simulated scanner with this id. */
  scan(deviceId: string, value: string): void;
  /** The simulated scanners' ids. */
  scanners(): string[];
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
    scan(deviceId, value) {
      sim(deviceId, SimScanner, "scanner").scan(value);
    },
    scanners: () => [...adapters].flatMap(([id, a]) => (a instanceof SimScanner ? [id] : [])),
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

/** Where the station file puts each seat's scanners and each bin's light, button and sensor (station/topology.ts answers it). */
export interface StationWiring {
  scannersOf(seat: string): readonly string[];
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

/**
 * The simulator by seat and bin: a scan at a seat reaches its simulated scanner, a press or beam on a
 * bin the device the station file wires to it.
 */
export function binSimulator(simulator: () => DeviceSimulator, wiring: StationWiring) {
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
  /** The seat's simulated scanner, or null when its scanners are all real (or it has none). */
  const scannerOf = (seat: string): string | null => {
    const simulated = new Set(simulator().scanners());
    return wiring.scannersOf(seat).find((id) => simulated.has(id)) ?? null;
  };
  return {
    scannerOf,
    scan(seat: string, barcode: string) {
      const id = scannerOf(seat);
      if (id === null)
        throw new AppError("not_found", `no simulated scanner at seat '${seat}'`, [
          { path: "seat", message: "not a seat with a simulated scanner" },
        ]);
      simulator().scan(id, barcode);
    },
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

export type BinSimulator = ReturnType<typeof binSimulator>;
