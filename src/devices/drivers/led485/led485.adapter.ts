/**
 * Quantity displays on Modbus RTU (LED-485 series [SRC 35]): one unit id per bin on a shared line, the
 * bin's light address being the unit id. With a `segments` point everything is written there as text
 * (quantity right-aligned, "ERR" for a refused scan, blanks for off), so the display never has to switch
 * between its number and text registers; without one, the signed `value` register shows the quantity.
 * Writes of absolute values are idempotent, so they are retried on timeout [§2.6]. These displays have
 * no colours, no blinking and no buttons; confirmation comes from a DI input or a sensor.
 */

import type { LightCommand } from "../../hub.types.js";
import { errorText } from "../../link/byte-link.js";
import { readLightAddress } from "../../profiles/light-address.js";
import { type AdapterContext, type DeviceAdapter, DeviceUnavailableError } from "../adapter.types.js";
import { ModbusTimeoutError } from "../modbus-rtu/modbus-bus.js";
import { modbusTransaction } from "../modbus-rtu/modbus-device.js";
import type { LineMember, ModbusLine } from "../modbus-rtu/modbus-line.js";
import { type Led485Profile, led485Codec } from "./led485.profile.js";

export function createLed485Adapter(
  ctx: AdapterContext,
  profile: Led485Profile,
  line: ModbusLine,
): DeviceAdapter {
  const codec = led485Codec(profile);
  const transaction = modbusTransaction(profile);
  const unitOf = (address: string) => readLightAddress(profile.ptl.addressing, address);
  /** Last command per address, shown again when the line comes back. */
  const wanted = new Map<string, LightCommand>();

  async function send(cmd: LightCommand): Promise<void> {
    try {
      await line.bus.request(codec.frame(unitOf(cmd.address).numbers[0], cmd), transaction);
      ctx.status.seen();
      ctx.status.connected();
    } catch (e) {
      if (e instanceof ModbusTimeoutError) {
        ctx.status.disconnected(e.message);
        throw new DeviceUnavailableError(ctx.deviceId, e.message);
      }
      ctx.status.error(errorText(e));
      throw line.isOpen ? e : new DeviceUnavailableError(ctx.deviceId, errorText(e));
    }
  }

  const member: LineMember = {
    opened: () => {
      ctx.status.connected();
      for (const cmd of wanted.values()) send(cmd).catch(() => {});
    },
    down: (reason) => ctx.status.disconnected(reason),
    retrying: () => ctx.status.reconnecting(),
    noise: (reason) => ctx.status.error(`line ${line.path}: ${reason}`),
  };

  return {
    start() {
      line.join(member);
    },
    async stop() {
      await line.leave(member);
    },
    async light(cmd) {
      wanted.set(unitOf(cmd.address).canonical, cmd);
      if (!line.isOpen) throw new DeviceUnavailableError(ctx.deviceId, `${line.path} is not open`);
      await send(cmd);
    },
  };
}
