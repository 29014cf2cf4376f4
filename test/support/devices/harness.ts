/**
 * A device hub over a station definition written in the test, with the shipped profiles (timings
 * shortened where a test needs it), a way to await the next matching event or a health state without
 * sleeping, and the recorded events.
 */
import pino from "pino";
import { createDeviceHub, type StationDeviceHub } from "../../../src/devices/device-hub.js";
import type { DeviceBackends } from "../../../src/devices/drivers/create-adapter.js";
import type { DeviceEvent, DeviceHealth } from "../../../src/devices/hub.types.js";
import type { FirmwareProfile } from "../../../src/devices/profiles/firmware-profile.schema.js";
import { loadProfiles } from "../../../src/devices/profiles/load-profiles.js";
import { DEFAULT_PROFILES_DIR, validateStation } from "../../../src/devices/station-file/station-file.js";
import { Metrics } from "../../../src/metrics.js";
import { createTopology } from "../../../src/station/topology.js";
import { deadline } from "../deadline.js";

export type Profiles = Map<string, FirmwareProfile>;

/** The shipped profiles with `timing` changed per profile id (fast reconnects and timeouts in tests). */
export async function testProfiles(
  timing: Record<string, FirmwareProfile["timing"]> = {},
): Promise<Profiles> {
  const profiles = await loadProfiles(DEFAULT_PROFILES_DIR);
  const out: Profiles = new Map();
  for (const [id, p] of profiles) {
    const copy = structuredClone(p);
    if (timing[id]) copy.timing = { ...copy.timing, ...timing[id] };
    out.set(id, copy);
  }
  return out;
}

export const FAST = { reconnectBackoffMs: [20, 40, 80] };

export interface HubHarness {
  hub: StationDeviceHub;
  metrics: Metrics;
  events: DeviceEvent[];
  /** The first not yet taken event that matches, waiting for it if needed. */
  next(match: (e: DeviceEvent) => boolean, what: string, timeoutMs?: number): Promise<DeviceEvent>;
  /** Resolves once the device's health satisfies `cond` (re-checked on every health change and event). */
  health(
    id: string,
    cond: (h: DeviceHealth) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<DeviceHealth>;
  /** The bin a button or sensor event belongs to, as the station topology resolves it. */
  binOf(event: DeviceEvent): string | null;
  /** The seat of a scanner's scans, as the station topology resolves it. */
  seatOf(scannerId: string): string | null;
  stop(): Promise<void>;
}

export async function startHub(
  definition: unknown,
  profiles: Profiles,
  backends: DeviceBackends = {},
): Promise<HubHarness> {
  const events: DeviceEvent[] = [];
  const taken = new Set<number>();
  const wakers = new Set<() => void>();
  const wake = () => {
    for (const w of [...wakers]) w();
  };
  const metrics = new Metrics();
  const station = {
    source: "test.yaml",
    definition: validateStation("test.yaml", definition, profiles),
    profiles,
  };
  const hub = createDeviceHub({
    station,
    metrics,
    log: pino({ level: "silent" }),
    onHealthChange: wake,
    onDeviceError: wake,
    backends,
  });
  hub.onEvent("test", (e) => {
    events.push(e);
    wake();
  });

  function waitFor<T>(probe: () => T | undefined, what: string, timeoutMs: number): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const v = probe();
        if (v === undefined) return;
        clearTimeout(timer);
        wakers.delete(check);
        resolve(v);
      };
      const timer = setTimeout(() => {
        wakers.delete(check);
        reject(new Error(`timed out waiting for ${what}`));
      }, deadline(timeoutMs));
      wakers.add(check);
      check();
    });
  }

  const topology = createTopology(hub.station);
  await hub.start();
  return {
    hub,
    metrics,
    events,
    next(match, what, timeoutMs = 5000) {
      return waitFor(
        () => {
          const i = events.findIndex((e, k) => !taken.has(k) && match(e));
          if (i < 0) return undefined;
          taken.add(i);
          return events[i];
        },
        what,
        timeoutMs,
      );
    },
    health(id, cond, what, timeoutMs = 5000) {
      return waitFor(
        () => {
          const h = hub.health().find((x) => x.id === id);
          return h && cond(h) ? h : undefined;
        },
        what,
        timeoutMs,
      );
    },
    binOf: (event) => topology.binOf(event),
    seatOf: (scannerId) => topology.seatOf(scannerId),
    stop: () => hub.stop(),
  };
}

/** Resolves with the first chunk(s) on `port` that make `accept(all bytes so far)` return a value. */
export function readUntil<T>(
  port: NodeJS.EventEmitter,
  accept: (bytes: Buffer) => T | undefined,
  what: string,
  timeoutMs = 5000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    let seen = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      seen = Buffer.concat([seen, chunk]);
      const v = accept(seen);
      if (v === undefined) return;
      clearTimeout(timer);
      port.off("data", onData);
      resolve(v);
    };
    const timer = setTimeout(() => {
      port.off("data", onData);
      reject(new Error(`timed out waiting for ${what}; got ${seen.toString("hex")}`));
    }, deadline(timeoutMs));
    port.on("data", onData);
  });
}
