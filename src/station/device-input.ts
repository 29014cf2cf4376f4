/**
 * Device events into engine inputs: a scan goes to its scanner's seat (station file `devices[].seat`;
 * a station with one seat takes every scan), a button to the bin whose light it is, a beam that is
 * interrupted to the bin it watches. Nothing a device sends may stop the engine: failures are logged.
 */
import type { Logger } from "pino";
import type { DeviceEvent } from "../devices/hub.types.js";
import type { StationLayout } from "./layout.js";

interface Inputs<O> {
  scan(seat: string, barcode: string, source: string): O;
  press(binId: string, signal: "confirm" | "shortage" | "sensor"): O;
}

/** Returns what the engine made of the event, or null when it was not for the engine. */
export function routeDeviceEvent<O>(
  e: DeviceEvent,
  engine: Inputs<O>,
  deps: { seats: readonly string[]; layout: StationLayout; log: Logger },
): O | null {
  const { layout, log } = deps;
  try {
    let out: O | null = null;
    if (e.type === "scan") {
      const seat = e.seat ?? (deps.seats.length === 1 ? deps.seats[0] : undefined);
      if (seat === undefined) {
        log.warn({ device: e.deviceId }, "scan from a scanner with no seat");
        return null;
      }
      out = engine.scan(seat, e.value, e.deviceId);
    } else if (e.type === "button") {
      const bin = layout.binOfButton(e.deviceId, e.address);
      if (bin === null) {
        log.warn({ device: e.deviceId, address: e.address }, "button of no bin");
        return null;
      }
      out = engine.press(bin, e.button);
    } else if (e.active) {
      const bin = layout.binOfSensor(e.deviceId, e.channel);
      if (bin !== null) out = engine.press(bin, "sensor");
    }
    if (out) log.debug({ event: e, outcome: out }, "station input");
    return out;
  } catch (err) {
    log.error({ err, event: e }, "station input failed");
    return null;
  }
}
