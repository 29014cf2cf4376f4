/**
 * What every device driver exports: one folder per protocol under drivers/, listed in registry.ts.
 * A driver reads the profiles of its protocol (the fields it adds to its kind's body and their
 * cross-field checks), owns a pure codec (bytes ⇄ messages: no IO, no clock) and builds the adapter,
 * the IO shell around that codec. A new controller model of a known protocol is a new profile file;
 * a new protocol is a new folder here and its entry in registry.ts (docs/architecture.md).
 */
import type { Logger } from "pino";
import type { z } from "zod";
import type { DeviceDefinition, DeviceTransport } from "../../config/station-file.schema.js";
import type { DeviceKind } from "../../domain/device-kinds.js";
import type { ByteLink, LinkEvents } from "../link/byte-link.js";
import type { HidLink, HidLinkEvents } from "../link/hid-link.js";
import type { SerialPortFactory, SerialSettings } from "../link/serial-link.js";
import type { AddIssue } from "../profiles/profile-checks.js";
import type { AnyKindProfile, KindProfile } from "../profiles/profile-kinds.js";
import type { AdapterContext, DeviceAdapter } from "./adapter.types.js";

/** How a device is reached, as the station file writes it. */
export type TransportType = DeviceTransport["type"];

/** Which profiles a driver reads and the fields it adds to their body. */
export interface ProfileSpec<K extends DeviceKind = DeviceKind, S extends z.ZodRawShape = z.ZodRawShape> {
  kind: K;
  /** Values of the kind's protocol field (`scanner.mode`, `ptl.codec`, …) this driver speaks. */
  protocols: readonly string[];
  /** Fields added to the kind's body; each is optional in the file, the checks say when one is required. */
  parts: S;
}

export type PartsOf<S extends z.ZodRawShape> = { [P in keyof S]?: z.output<S[P]> };

/** The profile a driver with this spec is handed: its kind's fields and its own. */
export type SpecProfile<Spec> =
  Spec extends ProfileSpec<infer K, infer S> ? KindProfile<K, PartsOf<S>> : AnyKindProfile | null;

/** What the hub lends an adapter to reach its device (create-adapter.ts). */
export interface AdapterIo {
  /** For health: serial path, tcp://host:port, hid vid:pid, sim. */
  readonly transport: string;
  /** Reconnect delays: the profile's `timing.reconnectBackoffMs`, else the agent's. */
  readonly backoffMs: readonly number[];
  /** The device's byte stream, serial or TCP as the station file says. */
  link(events: LinkEvents): ByteLink;
  /** The device's HID interface, matched as the station file says, opened with the profile's driver. */
  hidLink(events: HidLinkEvents): HidLink;
  /** Port settings of a serial device: the station file's, else the profile's, else 9600 8N1. */
  serialSettings(): SerialSettings;
  readonly serialPort: SerialPortFactory | undefined;
  /** One object per key for the whole hub: devices that share a line share what drives it. */
  shared<T>(key: string, make: () => T): T;
  readonly log: Logger;
  now(): number;
}

export interface DeviceDriver<Spec extends ProfileSpec | null = ProfileSpec | null, C = unknown> {
  /** Stable name, shown by `pps-edge profiles`. */
  readonly name: string;
  readonly kinds: readonly DeviceKind[];
  /** Station-file transports it runs over; a device may use any of them its profile allows. */
  readonly transports: readonly TransportType[];
  /** What it can do at the station, for people (blink, colours, quantity display, buttons, …). */
  readonly features: readonly string[];
  /** The profiles it reads; null for the simulator, which runs any kind with or without a profile. */
  readonly profile: Spec;
  /** Devices whose drivers name the same line protocol may share one serial port (Modbus unit ids). */
  readonly sharedLine?: string;
  /** Cross-field rules of its profiles, beyond what its zod fields say. */
  checks(profile: SpecProfile<Spec>, add: AddIssue): void;
  /** A fresh codec set up from the profile (stream parsers keep state: one per device); null if none. */
  codec(profile: SpecProfile<Spec>): C;
  /** The adapter of one device; null when the hub does not drive it (printers print from labels). */
  createAdapter(
    ctx: AdapterContext,
    device: DeviceDefinition,
    profile: SpecProfile<Spec>,
    io: AdapterIo,
  ): DeviceAdapter | null;
}

/** Keeps the literal types of a driver's spec, so the registry can build the profile type from them. */
export function defineDriver<const Spec extends ProfileSpec | null, C>(
  driver: DeviceDriver<Spec, C>,
): DeviceDriver<Spec, C> {
  return driver;
}
