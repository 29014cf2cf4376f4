/**
 * What a Modbus sensor or input profile says (`sensor.codec: modbus-rtu`): the register map whose
 * points the channels read, a light curtain's beams (Delta AS-BA [SRC 40]) or a DI module's inputs
 * (docs/hardware.md#firmware-profiles).
 */
import { type AddIssue, needTransport } from "../../profiles/profile-checks.js";
import type { SpecProfile } from "../driver.js";
import { modbusMapSchema } from "../modbus-rtu/modbus-map.schema.js";
import { encodeReadRequest } from "../modbus-rtu/modbus-rtu.codec.js";

export const modbusSensorSpec = {
  kind: "bin-sensor",
  protocols: ["modbus-rtu"],
  parts: { modbus: modbusMapSchema },
} as const;

export type ModbusSensorProfile = SpecProfile<typeof modbusSensorSpec>;
export type SensorChannel = ModbusSensorProfile["sensor"]["channels"][number];

export function modbusSensorChecks(p: ModbusSensorProfile, add: AddIssue): void {
  const s = p.sensor;
  needTransport(p, ["serial"], "for codec modbus-rtu", add);
  if (s.modbus === undefined) {
    add(["sensor", "modbus"], "is required for codec modbus-rtu");
    return;
  }
  const points = s.modbus.points;
  s.channels.forEach((c, i) => {
    const pt = points[c.point];
    const at = ["sensor", "channels", i];
    if (pt === undefined) {
      add([...at, "point"], "names no point in sensor.modbus.points");
      return;
    }
    const count = pt.count ?? 1;
    if (pt.type === "bits") {
      if (pt.fc !== 1 && pt.fc !== 2) add([...at, "point"], "a bits point must be read with FC 1 or 2");
      if (c.bit >= count) add([...at, "bit"], `must be below the point's count (${count})`);
    } else if (pt.type === "bits-msb-first") {
      if (pt.fc !== 3 && pt.fc !== 4)
        add([...at, "point"], "a bits-msb-first point must be read with FC 3 or 4");
      if (c.bit < 1 || c.bit > count * 8) add([...at, "bit"], `must be a beam number 1..${count * 8}`);
    } else add([...at, "point"], "must name a point of type bits or bits-msb-first");
  });
}

/** One read request of a poll and the channels whose bits its answer holds. */
export interface PointRead {
  frame: Uint8Array;
  type: "bits" | "bits-msb-first";
  count: number;
  channels: SensorChannel[];
}

/** The reads of one poll of unit `unit`: one request per point the channels use. */
export function pointReads(p: ModbusSensorProfile, unit: number): PointRead[] {
  const map = p.sensor.modbus;
  if (!map) throw new RangeError(`profile ${p.profileId} has no sensor.modbus`);
  const reads: PointRead[] = [];
  for (const name of new Set(p.sensor.channels.map((c) => c.point))) {
    const point = map.points[name];
    if (!point || (point.fc !== 1 && point.fc !== 2 && point.fc !== 3 && point.fc !== 4)) continue;
    const count = point.count ?? 1;
    reads.push({
      // addressBase 1: the manual counts from 1, the PDU from 0 [SRC 42]
      frame: encodeReadRequest(unit, point.fc, point.address - map.addressBase, count),
      type: point.type === "bits-msb-first" ? "bits-msb-first" : "bits",
      count,
      channels: p.sensor.channels.filter((c) => c.point === name),
    });
  }
  return reads;
}

/**
 * Stateless: the read requests of a poll from the map (for the station file's `unitId`, else the
 * profile's); the channel bits of an answer come out with modbus-points.ts `readChannelBit`, and
 * debouncing is the adapter's.
 */
export function modbusSensorCodec(p: ModbusSensorProfile): { reads(unit?: number): PointRead[] } {
  return { reads: (unit) => pointReads(p, unit ?? p.sensor.modbus?.unitId ?? 1) };
}
