/** LED-485 series quantity displays on Modbus RTU, one unit id per bin (docs/hardware.md#modbus-rtu). */
import { defineDriver } from "../driver.js";
import { MODBUS_RTU_LINE, modbusLineOf } from "../modbus-rtu/modbus-device.js";
import { createLed485Adapter } from "./led485.adapter.js";
import { led485Checks, led485Codec, led485Spec } from "./led485.profile.js";

export const led485Driver = defineDriver({
  name: "led485",
  kinds: ["ptl-controller"],
  transports: ["serial"],
  features: ["quantity display", "ERR text", "shares an RS-485 line"],
  profile: led485Spec,
  sharedLine: MODBUS_RTU_LINE,
  checks: led485Checks,
  codec: led485Codec,
  createAdapter: (ctx, _device, profile, io) => createLed485Adapter(ctx, profile, modbusLineOf(profile, io)),
});
