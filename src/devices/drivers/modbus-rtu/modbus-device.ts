/**
 * What the Modbus RTU drivers (displays, sensors and inputs) share: one line per serial path for every
 * Modbus device the station file puts there (one transaction at a time on it [SRC 39]), and the
 * profile's timing as transaction options (docs/hardware.md#modbus-rtu).
 */
import type { ProfileEnvelope } from "../../profiles/profile-kinds.js";
import { FALLBACK_TIMING } from "../adapter.types.js";
import type { AdapterIo } from "../driver.js";
import type { TransactionOptions } from "./modbus-bus.js";
import { ModbusLine } from "./modbus-line.js";
import type { ModbusRtuParserOptions } from "./modbus-rtu.parser.js";

/** Drivers naming this line protocol may put several devices on one serial port. */
export const MODBUS_RTU_LINE = "modbus-rtu";

/** The line on the device's serial path, made by the first Modbus device there and shared after. */
export function modbusLineOf(profile: ProfileEnvelope, io: AdapterIo): ModbusLine {
  const settings = io.serialSettings();
  return io.shared(`${MODBUS_RTU_LINE}:${settings.path}`, () => {
    const echo = profile.transport.type === "serial" && profile.transport.rs485?.twoWireEcho === true;
    return new ModbusLine({
      settings,
      factory: io.serialPort,
      backoffMs: io.backoffMs,
      twoWireEcho: echo,
      interFrameGapMs: profile.timing?.interFrameGapMs ?? null,
      now: io.now,
      log: io.log,
    });
  });
}

export function modbusTransaction(profile: ProfileEnvelope): TransactionOptions {
  const t = profile.timing ?? {};
  return {
    timeoutMs: t.responseTimeoutMs ?? FALLBACK_TIMING.responseTimeoutMs,
    retries: t.retries ?? FALLBACK_TIMING.retries,
  };
}

export function modbusParserOptions(p: ProfileEnvelope): ModbusRtuParserOptions<"response"> {
  return { direction: "response", interFrameGapMs: p.timing?.interFrameGapMs ?? null };
}
