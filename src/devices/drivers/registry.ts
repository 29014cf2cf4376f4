/**
 * The device drivers the agent has: the one list profile validation, the station-file checks, the
 * adapter factory and `pps-edge profiles` go through. A new protocol is a folder beside this file and
 * its entry here (import and list); the order is the order `pps-edge profiles` lists them (and, within
 * a kind, the order of the protocol names in error messages).
 */

import type { DeviceDefinition } from "../../config/station-file.schema.js";
import { type AnyKindProfile, protocolOf } from "../profiles/profile-kinds.js";
import { atopCcbDriver } from "./atop-ccb/atop-ccb.driver.js";
import type { DeviceDriver } from "./driver.js";
import { hidKeyboardDriver } from "./hid-keyboard/hid-keyboard.driver.js";
import { hidPosDriver } from "./hid-pos/hid-pos.driver.js";
import { labelPrinterDriver } from "./label-printer/label-printer.driver.js";
import { led485Driver } from "./led485/led485.driver.js";
import { modbusSensorDriver } from "./modbus-sensor/modbus-sensor.driver.js";
import { serialScannerDriver } from "./serial-scanner/serial-scanner.driver.js";
import { simDriver } from "./sim/sim.driver.js";
import { sortexxDriver } from "./sortexx/sortexx.driver.js";

export const DRIVERS = [
  hidPosDriver,
  hidKeyboardDriver,
  serialScannerDriver,
  atopCcbDriver,
  sortexxDriver,
  led485Driver,
  modbusSensorDriver,
  labelPrinterDriver,
  simDriver,
] as const;

/** A driver of any protocol, as the registry hands it out: it is only ever given profiles it reads. */
export type RegisteredDriver = DeviceDriver;

export const drivers: readonly RegisteredDriver[] = DRIVERS;

/** The driver that reads a profile (by its kind and protocol), or null for a protocol without one. */
export function driverOfProfile(profile: AnyKindProfile): RegisteredDriver | null {
  const protocol = protocolOf(profile);
  const spec = (d: RegisteredDriver) =>
    d.profile?.kind === profile.kind && d.profile.protocols.includes(protocol);
  return drivers.find(spec) ?? null;
}

/** A station-file device's driver: the simulator for `transport: sim` (or no profile), else its profile's. */
export function driverOfDevice(
  device: DeviceDefinition,
  profile: AnyKindProfile | null,
): RegisteredDriver | null {
  if (device.transport.type === "sim" || profile === null) return simDriver;
  return driverOfProfile(profile);
}
