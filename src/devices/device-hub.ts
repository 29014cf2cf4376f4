/**
 * The device hub: builds one adapter per device of the station file (or of the embedded simulated
 * station), starts each on its own so an absent or failing device is reported and retried while the
 * others run, fans device events out to subscribers, routes light commands to their controller and keeps
 * every device's health. Implements the DeviceHub seam the station engine is written against.
 *
 * Each role has its module: adapters and their lifecycle (hub-adapters.ts), event routing
 * (hub-events.ts), light routing (hub-lights.ts), health (device-health.ts), the simulator
 * (drivers/sim/simulator.ts); this file puts them together.
 */
import type { Logger } from "pino";
import type { StationFile } from "../config/station-file.schema.js";
import type { Metrics } from "../metrics.js";
import { DeviceHealthBook, deviceCounters } from "./device-health.js";
import { adapterFactory, type DeviceBackends } from "./drivers/create-adapter.js";
import { type DeviceSimulator, simulatorOf } from "./drivers/sim/simulator.js";
import type { DeviceHealth, DeviceHub } from "./hub.types.js";
import { adapterLifecycle, buildAdapters } from "./hub-adapters.js";
import { createEventRouter } from "./hub-events.js";
import { routeLight } from "./hub-lights.js";
import type { LoadedStation } from "./station-file/station-file.js";

export type { DeviceSimulator } from "./drivers/sim/simulator.js";

export interface StationDeviceHub extends DeviceHub {
  /** The station as declared (file or embedded default), light addresses canonical. */
  readonly station: StationFile;
  /** Where the definition came from: the station file's path, or null for the embedded default. */
  readonly source: string | null;
  simulator(): DeviceSimulator;
}

export interface DeviceHubOptions {
  station: LoadedStation;
  metrics: Metrics;
  log: Logger;
  now?: () => number;
  /** Called when a device connects or disconnects (the agent announces `station` on its bus). */
  onHealthChange?: () => void;
  /** Called on every device error (bad frame, unanswered command); for screens and tests. */
  onDeviceError?: (deviceId: string, reason: string) => void;
  backends?: DeviceBackends;
}

export function createDeviceHub(opts: DeviceHubOptions): StationDeviceHub {
  const { station, metrics } = opts;
  const log = opts.log.child({ part: "devices" });
  const now = opts.now ?? Date.now;
  const counters = deviceCounters(metrics);
  const events = createEventRouter(counters.events, log);
  const health = new DeviceHealthBook({
    metrics,
    counters,
    log,
    now,
    onChange: () => opts.onHealthChange?.(),
    onError: (id, reason) => opts.onDeviceError?.(id, reason),
  });
  const build = adapterFactory({ backends: opts.backends ?? {}, log, now });
  const adapters = buildAdapters({ station, build, health, emit: events.emit, now, log });
  const { start, stop } = adapterLifecycle(adapters, log, station.source);

  return {
    station: station.definition,
    source: station.source,
    start,
    stop,
    onEvent: events.onEvent,
    off: events.off,
    light: (command) => routeLight(adapters, counters.lights, command),
    health: (): DeviceHealth[] => health.list(),
    simulator: () => simulatorOf(adapters),
  };
}
