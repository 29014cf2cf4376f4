/**
 * From a station-file device and its profile to the adapter that drives it: the registry names the
 * driver (the simulator for `transport: sim`), this file lends it the IO the station file describes
 * (a serial port or TCP socket, a HID interface, lines shared between devices) and the driver builds
 * the adapter. Only drivers and links know the transports; the hub sees DeviceAdapter.
 */
import type { Logger } from "pino";
import type { DeviceDefinition } from "../../config/station-file.schema.js";
import { type ByteLink, DEFAULT_BACKOFF_MS, type LinkEvents } from "../link/byte-link.js";
import { type HidBackend, nodeHidBackend } from "../link/hid-backend.js";
import { describeHid, HidLink, type HidLinkEvents } from "../link/hid-link.js";
import { SerialLink, type SerialPortFactory, type SerialSettings } from "../link/serial-link.js";
import { TcpLink } from "../link/tcp-link.js";
import type { FirmwareProfile } from "../profiles/firmware-profile.schema.js";
import type { AdapterContext, DeviceAdapter } from "./adapter.types.js";
import type { AdapterIo } from "./driver.js";
import { driverOfDevice } from "./registry.js";

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

function describeTransport(device: DeviceDefinition): string {
  const t = device.transport;
  if (t.type === "tcp") return `tcp://${t.host}:${t.port}`;
  if (t.type === "serial") return t.path;
  if (t.type === "hid") return describeHid(t);
  return "sim";
}

function serialSettings(device: DeviceDefinition, profile: FirmwareProfile | null): SerialSettings {
  const t = device.transport;
  const p = profile?.transport.type === "serial" ? profile.transport : undefined;
  if (t.type !== "serial") throw new RangeError(`device ${device.id} is not on a serial port`);
  return {
    path: t.path,
    baudRate: t.baudRate ?? p?.baudRate ?? 9600,
    dataBits: t.dataBits ?? p?.dataBits ?? 8,
    parity: t.parity ?? p?.parity ?? "none",
    stopBits: t.stopBits ?? p?.stopBits ?? 1,
  };
}

/** Builds adapters; what devices share (a Modbus line on one serial path) lives as long as the factory. */
export function adapterFactory(deps: AdapterFactoryDeps) {
  const shared = new Map<string, unknown>();

  function io(device: DeviceDefinition, profile: FirmwareProfile | null): AdapterIo {
    const backoffMs = profile?.timing?.reconnectBackoffMs ?? DEFAULT_BACKOFF_MS;
    const common = { backoffMs, log: deps.log };
    return {
      transport: describeTransport(device),
      backoffMs,
      link(events: LinkEvents): ByteLink {
        const t = device.transport;
        if (t.type === "tcp") return new TcpLink({ ...common, ...events, host: t.host, port: t.port });
        const settings = serialSettings(device, profile);
        return new SerialLink({ ...common, ...events, settings, factory: deps.backends.serialPort });
      },
      hidLink(events: HidLinkEvents): HidLink {
        const t = device.transport;
        const p = profile?.transport;
        if (t.type !== "hid" || p?.type !== "hid") {
          throw new RangeError(`device ${device.id}: only scanners are read over HID`);
        }
        const backend = (deps.backends.hid ?? nodeHidBackend)(p.driver);
        const initFeatureReports = p.initFeatureReports ?? [];
        return new HidLink({ ...events, match: t, backend, backoffMs, initFeatureReports });
      },
      serialSettings: () => serialSettings(device, profile),
      serialPort: deps.backends.serialPort,
      shared<T>(key: string, make: () => T): T {
        if (!shared.has(key)) shared.set(key, make());
        return shared.get(key) as T;
      },
      log: deps.log,
      now: deps.now,
    };
  }

  /** The device's adapter, or null when the hub does not drive it (printers). */
  return function build(
    ctx: AdapterContext,
    device: DeviceDefinition,
    profile: FirmwareProfile | null,
  ): BuiltAdapter | null {
    const driver = driverOfDevice(device, profile);
    if (driver === null) {
      throw new RangeError(`device ${device.id}: no adapter for profile ${profile?.profileId ?? "sim"}`);
    }
    const lent = io(device, profile);
    const adapter = driver.createAdapter(ctx, device, profile, lent);
    return adapter === null ? null : { adapter, transport: lent.transport };
  };
}
