/**
 * Quantity displays on Modbus RTU (LED-485 series [SRC 35]): one unit id per bin on a shared line, the
 * bin's light address being the unit id. With a `segments` point everything is written there as text
 * (quantity right-aligned, "ERR" for a refused scan, blanks for off), so the display never has to switch
 * between its number and text registers; without one, the signed `value` register shows the quantity.
 * Writes of absolute values are idempotent, so they are retried on timeout [§2.6]. These displays have
 * no colours, no blinking and no buttons; confirmation comes from a DI input or a sensor.
 */

import type { LightCommand } from "../../hub.types.js";
import type { PtlProfile } from "../../profiles/firmware-profile.schema.js";
import {
  type AdapterContext,
  type DeviceAdapter,
  DeviceUnavailableError,
  errorText,
  FALLBACK_TIMING,
} from "../adapter.types.js";
import { ModbusTimeoutError } from "../modbus-rtu/modbus-bus.js";
import type { LineMember, ModbusLine } from "../modbus-rtu/modbus-line.js";
import { encodeLed485Text, encodeLed485Value } from "./led485.codec.js";

/** The frame that shows `cmd` on unit `unit` of a display with `profile`. */
export function displayFrame(profile: PtlProfile, unit: number, cmd: LightCommand): Uint8Array {
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

export function createModbusDisplayAdapter(
  ctx: AdapterContext,
  profile: PtlProfile,
  line: ModbusLine,
): DeviceAdapter {
  const t = profile.timing ?? {};
  const transaction = {
    timeoutMs: t.responseTimeoutMs ?? FALLBACK_TIMING.responseTimeoutMs,
    retries: t.retries ?? FALLBACK_TIMING.retries,
  };
  /** Last command per address, shown again when the line comes back. */
  const wanted = new Map<string, LightCommand>();

  async function send(cmd: LightCommand): Promise<void> {
    try {
      await line.bus.request(displayFrame(profile, Number(cmd.address), cmd), transaction);
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
      wanted.set(cmd.address, cmd);
      if (!line.isOpen) throw new DeviceUnavailableError(ctx.deviceId, `${line.path} is not open`);
      await send(cmd);
    },
  };
}
