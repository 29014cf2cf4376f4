/**
 * Bin sensors and inputs on Modbus RTU, polled: light curtains (Delta AS-BA) and discrete-input modules
 * whose inputs are presence beams or confirm/shortage buttons (docs/hardware.md#modbus-rtu).
 */
import { defineDriver } from "../driver.js";
import { MODBUS_RTU_LINE, modbusLineOf } from "../modbus-rtu/modbus-device.js";
import { createModbusSensorAdapter } from "./modbus-sensor.adapter.js";
import { modbusSensorChecks, modbusSensorCodec, modbusSensorSpec } from "./modbus-sensor.profile.js";

export const modbusSensorDriver = defineDriver({
  name: "modbus-sensor",
  kinds: ["bin-sensor"],
  transports: ["serial"],
  features: ["presence beams", "confirm/shortage inputs", "debounce per channel", "shares an RS-485 line"],
  profile: modbusSensorSpec,
  sharedLine: MODBUS_RTU_LINE,
  checks: modbusSensorChecks,
  codec: modbusSensorCodec,
  createAdapter: (ctx, device, profile, io) =>
    createModbusSensorAdapter(ctx, profile, modbusLineOf(profile, io), device.unitId),
});
