/**
 * The hub's simulator: drives the simulated adapters among the hub's devices (scans, button presses,
 * sensor edges) and reads back what the simulated lights show.
 */
import { AppError } from "../domain/errors.js";
import { SimLights, SimScanner, SimSensors } from "./drivers/sim/sim.adapter.js";
import type { LightCommand } from "./hub.types.js";
import type { Adapters } from "./hub-adapters.js";

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
