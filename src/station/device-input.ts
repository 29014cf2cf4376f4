/**
 * Device events into engine inputs: a scan goes to its scanner's seat, a button to the bin whose light
 * or input it is, a beam that is interrupted to the bin it watches, the IRT bin's included; the
 * topology answers which (topology.ts). Nothing a device sends may stop the engine: failures are logged.
 */
import type { Logger } from "pino";
import type { DeviceEvent } from "../devices/hub.types.js";
import { GS } from "../domain/gs1.js";
import { shownScan } from "../domain/supervisor-credential.js";
import type { PauseInput, StationTopology } from "./topology.js";

interface Inputs<O> {
  scan(seat: string, barcode: string, source: string): O;
  press(binId: string, signal: "confirm" | "shortage" | "sensor"): O;
  /** A pause input's level (docs/station.md#pausing-a-seat). */
  pauseInput?(input: PauseInput, active: boolean): O;
}

/**
 * The text the engine gets for a scan. The scanner's AIM identifier, which says a scan is GS1, was
 * taken off its value: a GS1 scan goes on as its element string with FNC1 in first position, sent as
 * GS, so the station reads its GTIN, serial, lot and expiry date (docs/capture.md#gs1-element-strings).
 */
export function scannedText(e: Extract<DeviceEvent, { type: "scan" }>): string {
  return e.gs1 && !e.value.startsWith(GS) ? `${GS}${e.value}` : e.value;
}

/** A device event as logged: a supervisor's badge without its secret (docs/security.md#supervisor-credentials). */
const logged = (e: DeviceEvent): DeviceEvent => (e.type === "scan" ? { ...e, value: shownScan(e.value) } : e);

/** Returns what the engine made of the event, or null when it was not for the engine. */
export function routeDeviceEvent<O>(
  e: DeviceEvent,
  engine: Inputs<O>,
  deps: { topology: StationTopology; log: Logger },
): O | null {
  const { topology, log } = deps;
  try {
    let out: O | null = null;
    if (e.type === "scan") {
      const seat = topology.seatOf(e.deviceId);
      if (seat === null) {
        log.warn({ device: e.deviceId }, "scan from a scanner with no seat");
        return null;
      }
      out = engine.scan(seat, scannedText(e), e.deviceId);
    } else if (e.type === "button") {
      const bin = topology.binOf(e);
      if (bin === null) {
        log.warn({ device: e.deviceId, address: e.address }, "button of no bin");
        return null;
      }
      out = engine.press(bin, e.button);
    } else if (topology.pauseInputOf(e) && engine.pauseInput) {
      out = engine.pauseInput(topology.pauseInputOf(e) as PauseInput, e.active);
    } else if (e.active) {
      const bin = topology.binOf(e);
      if (bin !== null) out = engine.press(bin, "sensor");
    }
    if (out) log.debug({ event: logged(e), outcome: out }, "station input");
    return out;
  } catch (err) {
    log.error({ err, event: logged(e) }, "station input failed");
    return null;
  }
}
