/**
 * Rules of a station file that span fields or need the firmware profiles: every profile named exists and
 * is of the device's kind and transport, every light, sensor and button names a device of the right kind
 * and an address or channel that device has, and belongs to one bin only (so the station topology can
 * tell every event's bin). Each issue carries the dotted path to fix. Pure.
 */

import type { BinDefinition, DeviceDefinition, StationFile } from "../../config/station-file.schema.js";
import type { FieldError } from "../../domain/errors.js";
import { driverOfProfile, type RegisteredDriver } from "../drivers/registry.js";
import type { FirmwareProfile } from "../profiles/firmware-profile.schema.js";
import { parseLightAddress } from "../profiles/light-address.js";
import { PROFILE_KINDS, protocolOf } from "../profiles/profile-kinds.js";

/** The built-in profile of simulated devices; no file, only with `transport: sim`. */
export const SIM_PROFILE = "sim";

type Profiles = ReadonlyMap<string, FirmwareProfile>;

/**
 * The canonical form of a light address for a controller profile, or the reason it is not one (the
 * profile's addressing scheme decides: light-address.ts). Without a profile (simulated lights) any
 * text is an address.
 */
export function canonicalAddress(
  profile: FirmwareProfile | null,
  address: string,
): string | { error: string } {
  if (profile === null || profile.kind !== "ptl-controller") return address;
  const a = parseLightAddress(profile.ptl.addressing, address);
  return "error" in a ? a : a.canonical;
}

/** Which station-file transports can carry a profile's: its own, or any of its driver's when both are. */
function transportFits(device: DeviceDefinition, profile: FirmwareProfile): string | null {
  const t = device.transport.type;
  if (t === "sim") return null;
  const wanted = profile.transport.type;
  const over = driverOfProfile(profile)?.transports ?? [];
  const ok = wanted === t || (over.includes(t) && over.includes(wanted));
  return ok ? null : `profile ${profile.profileId} speaks ${wanted}, not ${t}`;
}

/** Real (non-sim) devices need a driver for their protocol. */
function driverMissing(profile: FirmwareProfile): string | null {
  if (driverOfProfile(profile) !== null) return null;
  return `${PROFILE_KINDS[profile.kind].variant} ${protocolOf(profile)} has no adapter`;
}

/** Devices on one serial path: only those whose drivers share a line protocol (Modbus unit ids [SRC 39]). */
function shareLine(a: FirmwareProfile | null, b: FirmwareProfile | null): boolean {
  const line = (p: FirmwareProfile | null): RegisteredDriver["sharedLine"] =>
    p === null ? undefined : driverOfProfile(p)?.sharedLine;
  const la = line(a);
  return la !== undefined && la === line(b);
}

type Add = (path: Array<string | number>, message: string) => void;
interface Declared {
  device: DeviceDefinition;
  profile: FirmwareProfile | null;
}

/** A device's profile: exists, is of its kind, speaks its transport, has a driver for real hardware. */
function profileIssues(d: DeviceDefinition, at: Array<string | number>, profiles: Profiles, add: Add) {
  if (d.profile === SIM_PROFILE) {
    if (d.transport.type !== "sim") add([...at, "profile"], "sim is only for transport: sim");
    return null;
  }
  const profile = profiles.get(d.profile) ?? null;
  if (profile === null) {
    add(
      [...at, "profile"],
      `unknown profile '${d.profile}' (known: ${[...profiles.keys()].sort().join(", ")})`,
    );
  } else if (profile.kind !== d.kind) {
    add([...at, "profile"], `profile ${d.profile} is for a ${profile.kind}, not a ${d.kind}`);
  } else {
    const wrong = transportFits(d, profile);
    if (wrong) add([...at, "transport"], wrong);
    const missing = d.transport.type === "sim" ? null : driverMissing(profile);
    if (missing) add([...at, "profile"], missing);
  }
  return profile;
}

function deviceIssues(file: StationFile, profiles: Profiles, add: Add): Map<string, Declared> {
  const seats = new Set(file.station.seats);
  const devices = new Map<string, Declared>();
  const buses = new Map<string, DeviceDefinition>();
  file.devices.forEach((d, i) => {
    const at = ["devices", i];
    if (devices.has(d.id)) add([...at, "id"], `is used by another device`);
    const profile = profileIssues(d, at, profiles, add);
    if (d.seat !== undefined && !seats.has(d.seat)) add([...at, "seat"], `names no seat of station.seats`);
    if (d.seat !== undefined && d.kind !== "scanner") add([...at, "seat"], "only scanners belong to a seat");
    if (d.transport.type === "serial") {
      const other = buses.get(d.transport.path);
      if (other && !shareLine(profile, devices.get(other.id)?.profile ?? null)) {
        add(
          [...at, "transport", "serial"],
          `is also used by device ${other.id}; only Modbus devices share a bus`,
        );
      }
      buses.set(d.transport.path, d);
    }
    devices.set(d.id, { device: d, profile });
  });
  return devices;
}

/** A bin's light, sensor and button: a device of the right kind, an address or channel it has. */
function binChecker(devices: ReadonlyMap<string, Declared>, add: Add) {
  /** `device/address` (or channel) -> the bin that claimed it: no input may belong to two bins. */
  const claimed = new Map<string, string>();
  const claim = (what: string, key: string, bin: string, path: Array<string | number>) => {
    const other = claimed.get(`${what}\u0000${key}`);
    if (other !== undefined) add(path, `is also the ${what} of bin ${other}`);
    claimed.set(`${what}\u0000${key}`, bin);
  };
  return (bin: BinDefinition, at: Array<string | number>) => {
    if (bin.light) {
      const dev = devices.get(bin.light.device);
      if (!dev) add([...at, "light", "device"], `names no device (${bin.light.device})`);
      else if (dev.device.kind !== "ptl-controller")
        add([...at, "light", "device"], `${bin.light.device} is a ${dev.device.kind}, not a ptl-controller`);
      else {
        const a = canonicalAddress(dev.profile, bin.light.address);
        if (typeof a !== "string") add([...at, "light", "address"], a.error);
        else claim("light", `${bin.light.device}/${a}`, bin.id, [...at, "light", "address"]);
      }
    }
    for (const part of ["sensor", "button"] as const) {
      const ref = bin[part];
      if (!ref) continue;
      const dev = devices.get(ref.device);
      if (!dev) add([...at, part, "device"], `names no device (${ref.device})`);
      else if (dev.device.kind !== "bin-sensor")
        add([...at, part, "device"], `${ref.device} is a ${dev.device.kind}, not a bin-sensor`);
      else {
        claim(part, `${ref.device}/${ref.channel}`, bin.id, [...at, part, "channel"]);
        if (dev.profile?.kind !== "bin-sensor") continue;
        const ch = dev.profile.sensor.channels.find((c) => c.name === ref.channel);
        const role = ch?.role ?? "presence";
        if (!ch)
          add([...at, part, "channel"], `profile ${dev.profile.profileId} has no channel ${ref.channel}`);
        else if (part === "sensor" && role !== "presence")
          add([...at, part, "channel"], `is a ${role} input`);
        else if (part === "button" && role === "presence")
          add([...at, part, "channel"], "is a presence input");
        else if (part === "button" && role === "pause") add([...at, part, "channel"], "is a pause input");
      }
    }
  };
}

export function stationIssues(file: StationFile, profiles: Profiles): FieldError[] {
  const issues: FieldError[] = [];
  const add: Add = (path, message) => issues.push({ path: path.join("."), message });
  const seats = new Set<string>();
  file.station.seats.forEach((s, i) => {
    if (seats.has(s)) add(["station", "seats", i], "is listed twice");
    seats.add(s);
  });
  const checkBin = binChecker(deviceIssues(file, profiles, add), add);
  const binIds = new Set<string>();
  file.station.bins.forEach((b, i) => {
    if (binIds.has(b.id)) add(["station", "bins", i, "id"], "is listed twice");
    binIds.add(b.id);
    checkBin(b, ["station", "bins", i]);
    if (b.seat !== undefined && !seats.has(b.seat))
      add(["station", "bins", i, "seat"], `names no seat of station.seats (${b.seat})`);
  });
  if (file.station.irtBin?.seat !== undefined)
    add(["station", "irtBin", "seat"], "the IRT bin is the station's: it belongs to no seat");
  if (file.station.irtBin) {
    if (binIds.has(file.station.irtBin.id)) add(["station", "irtBin", "id"], "is also an order bin");
    checkBin(file.station.irtBin, ["station", "irtBin"]);
  }
  pauseInputIssues(file, profiles, seats, add);
  return issues;
}

/** Each pause input: a bin-sensor channel of role `pause`, listed once, holding seats the file has. */
function pauseInputIssues(file: StationFile, profiles: Profiles, seats: ReadonlySet<string>, add: Add): void {
  const seen = new Set<string>();
  (file.station.pauseInputs ?? []).forEach((p, i) => {
    const at = ["station", "pauseInputs", i];
    const k = `${p.device}\u0000${p.channel}`;
    if (seen.has(k)) add([...at, "channel"], "is listed twice");
    seen.add(k);
    p.seats?.forEach((s, j) => {
      if (!seats.has(s)) add([...at, "seats", j], `names no seat (${s})`);
    });
    const problem = pauseChannelProblem(file, profiles, p.device, p.channel);
    if (problem) add([...at, problem.field], problem.message);
  });
}

/** Why a pause input's device or channel is not one, or null. */
function pauseChannelProblem(file: StationFile, profiles: Profiles, deviceId: string, channel: string) {
  const device = file.devices.find((d) => d.id === deviceId);
  if (!device) return { field: "device", message: `names no device (${deviceId})` };
  if (device.kind !== "bin-sensor")
    return { field: "device", message: `${deviceId} is a ${device.kind}, not a bin-sensor` };
  const profile = device.profile === "sim" ? undefined : profiles.get(device.profile);
  if (profile?.kind !== "bin-sensor") return null;
  const ch = profile.sensor.channels.find((c) => c.name === channel);
  if (!ch) return { field: "channel", message: `profile ${profile.profileId} has no channel ${channel}` };
  if (ch.role !== "pause")
    return { field: "channel", message: `is a ${ch.role ?? "presence"} input, not a pause input` };
  return null;
}
