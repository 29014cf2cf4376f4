/**
 * What an LED-485 display profile says (`ptl.codec: modbus-rtu`): the display's Modbus register map,
 * of which the adapter writes `segments` (text) or `value` (docs/hardware.md#firmware-profiles).
 */
import type { LightCommand } from "../../hub.types.js";
import { type AddIssue, needTransport } from "../../profiles/profile-checks.js";
import type { SpecProfile } from "../driver.js";
import { modbusMapSchema } from "../modbus-rtu/modbus-map.schema.js";
import { encodeLed485Text, encodeLed485Value } from "./led485.codec.js";

export const led485Spec = {
  kind: "ptl-controller",
  protocols: ["modbus-rtu"],
  parts: { modbus: modbusMapSchema },
} as const;

export type Led485Profile = SpecProfile<typeof led485Spec>;

export function led485Checks(p: Led485Profile, add: AddIssue): void {
  needTransport(p, ["serial"], "for codec modbus-rtu", add);
  if (p.ptl.modbus === undefined) add(["ptl", "modbus"], "is required for codec modbus-rtu");
}

/** The frame that shows `cmd` on unit `unit` of a display with `profile`. */
export function displayFrame(profile: Led485Profile, unit: number, cmd: LightCommand): Uint8Array {
  const points = profile.ptl.modbus?.points ?? {};
  const base = profile.ptl.modbus?.addressBase ?? 0;
  const segments = points.segments;
  if (segments) {
    const width = Math.min(profile.ptl.capabilities.digits, (segments.count ?? 3) * 2);
    const max = 10 ** width - 1;
    const text =
      cmd.mode === "off"
        ? ""
        : cmd.mode === "error"
          ? "ERR"
          : String(Math.min(max, Math.max(0, cmd.quantity ?? 0)));
    return encodeLed485Text(unit, text.padStart(width, " "), segments.address - base);
  }
  const value = points.value;
  if (!value) throw new RangeError(`profile ${profile.profileId} has neither a segments nor a value point`);
  const q = cmd.mode === "show" ? Math.min(0x7fff, Math.max(-0x8000, cmd.quantity ?? 0)) : 0;
  return encodeLed485Value(unit, q, value.address - base);
}

/** Stateless: every light command is one register write to the bin's unit. */
export function led485Codec(p: Led485Profile): { frame(unit: number, cmd: LightCommand): Uint8Array } {
  return { frame: (unit, cmd) => displayFrame(p, unit, cmd) };
}
