/**
 * From a station-file device and its profile to the adapter that drives it: sim, serial (scanner,
 * SorTexx, Atop over RS-232, Modbus on a shared line), TCP (Atop) or HID (scanner). Only this folder
 * knows the transports; the hub sees DeviceAdapter. Printers are driven by the label printing part,
 * not here.
 */
import type { Logger } from "pino";
import { type HidBackend, nodeHidBackend } from "../link/hid-backend.js";
import { createHidScannerAdapter, describeHid } from "../link/hid-link.js";
import { SerialLink, type SerialPortFactory, type SerialSettings } from "../link/serial-link.js";
import { TcpLink } from "../link/tcp-link.js";
import type { FirmwareProfile } from "../profiles/firmware-profile.schema.js";
import type { DeviceDefinition } from "../station-file.schema.js";
import {
  type AdapterContext,
  DEFAULT_BACKOFF_MS,
  type DeviceAdapter,
  type LinkEvents,
  type MakeLink,
} from "./adapter.types.js";
import { createAtopCcbAdapter } from "./atop-ccb/atop-ccb.adapter.js";
import { createModbusDisplayAdapter } from "./led485/led485.adapter.js";
import { ModbusLine } from "./modbus-rtu/modbus-line.js";
import { createModbusSensorAdapter } from "./modbus-sensor/modbus-sensor.adapter.js";
import { createSerialScannerAdapter } from "./serial-scanner/serial-scanner.adapter.js";
import { SimLights, SimScanner, SimSensors } from "./sim/sim.adapter.js";
import { createSortexxAdapter } from "./sortexx/sortexx.adapter.js";

/** Replaceable IO: tests pass @serialport/binding-mock ports or a fake HID backend. */
export interface DeviceBackends {
  serialPort?: SerialPortFactory;
  hid?: (driver: "hidraw" | "libusb") => HidBackend;
}

export interface BuiltAdapter {
  adapter: DeviceAdapter;
  /** For health: serial path, tcp://host:port, hid vid:pid, sim. */
  transport: string;
}

export interface AdapterFactoryDeps {
  backends: DeviceBackends;
  log: Logger;
  now(): number;
}

/** Builds adapters; Modbus devices on one serial path share one line (one transaction at a time). */
export function adapterFactory(deps: AdapterFactoryDeps) {
  const lines = new Map<string, ModbusLine>();

  function serialSettings(device: DeviceDefinition, profile: FirmwareProfile): SerialSettings {
    const t = device.transport;
    const p = profile.transport.type === "serial" ? profile.transport : undefined;
    if (t.type !== "serial") throw new RangeError(`device ${device.id} is not on a serial port`);
    return {
      path: t.path,
      baudRate: t.baudRate ?? p?.baudRate ?? 9600,
      dataBits: t.dataBits ?? p?.dataBits ?? 8,
      parity: t.parity ?? p?.parity ?? "none",
      stopBits: t.stopBits ?? p?.stopBits ?? 1,
    };
  }

  function line(
    device: DeviceDefinition,
    profile: FirmwareProfile,
    backoffMs: readonly number[],
  ): ModbusLine {
    const settings = serialSettings(device, profile);
    const existing = lines.get(settings.path);
    if (existing) return existing;
    const echo = profile.transport.type === "serial" && profile.transport.rs485?.twoWireEcho === true;
    const made = new ModbusLine({
      settings,
      factory: deps.backends.serialPort,
      backoffMs,
      twoWireEcho: echo,
      interFrameGapMs: profile.timing?.interFrameGapMs ?? null,
      now: deps.now,
      log: deps.log,
    });
    lines.set(settings.path, made);
    return made;
  }

  return function build(
    ctx: AdapterContext,
    device: DeviceDefinition,
    profile: FirmwareProfile | null,
  ): BuiltAdapter {
    const t = device.transport;
    const seat = device.seat ?? null;
    if (t.type === "sim" || profile === null) {
      const adapter =
        device.kind === "scanner"
          ? new SimScanner(ctx, seat, profile)
          : device.kind === "ptl-controller"
            ? new SimLights(ctx)
            : new SimSensors(ctx, profile);
      return { adapter, transport: "sim" };
    }
    const backoffMs = profile.timing?.reconnectBackoffMs ?? DEFAULT_BACKOFF_MS;
    const common = { backoffMs, log: deps.log };
    let link: MakeLink;
    let transport: string;
    if (t.type === "tcp") {
      link = (events: LinkEvents) => new TcpLink({ ...common, ...events, host: t.host, port: t.port });
      transport = `tcp://${t.host}:${t.port}`;
    } else if (t.type === "serial") {
      const settings = serialSettings(device, profile);
      link = (events: LinkEvents) =>
        new SerialLink({ ...common, ...events, settings, factory: deps.backends.serialPort });
      transport = t.path;
    } else {
      if (profile.kind !== "scanner" || profile.transport.type !== "hid") {
        throw new RangeError(`device ${device.id}: only scanners are read over HID`);
      }
      const backend = (deps.backends.hid ?? nodeHidBackend)(profile.transport.driver);
      const adapter = createHidScannerAdapter(ctx, profile, seat, { match: t, backend, backoffMs });
      return { adapter, transport: describeHid(t) };
    }

    switch (profile.kind) {
      case "scanner":
        return { adapter: createSerialScannerAdapter(ctx, profile, seat, link), transport };
      case "ptl-controller": {
        const codec = profile.ptl.codec;
        if (codec === "atop-ccb") return { adapter: createAtopCcbAdapter(ctx, profile, link), transport };
        if (codec === "ascii-fixed") return { adapter: createSortexxAdapter(ctx, profile, link), transport };
        if (codec === "modbus-rtu")
          return {
            adapter: createModbusDisplayAdapter(ctx, profile, line(device, profile, backoffMs)),
            transport,
          };
        break;
      }
      case "bin-sensor":
        if (profile.sensor.codec === "modbus-rtu") {
          const l = line(device, profile, backoffMs);
          return { adapter: createModbusSensorAdapter(ctx, profile, l, device.unitId), transport };
        }
        break;
      case "printer":
        break;
    }
    throw new RangeError(`device ${device.id}: no adapter for profile ${profile.profileId}`);
  };
}
