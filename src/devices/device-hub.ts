/**
 * The device hub: builds one adapter per device of the station file (or of the embedded simulated
 * station), starts each on its own so an absent or failing device is reported and retried while the
 * others run, fans device events out to subscribers, routes light commands to their controller and keeps
 * every device's health. Implements the DeviceHub seam the station engine is written against.
 */
import type { Logger } from "pino";
import { AppError } from "../domain/errors.js";
import type { Metrics } from "../metrics.js";
import { DeviceHealthBook } from "./device-health.js";
import { type AdapterContext, type DeviceAdapter, isDeviceUnavailable } from "./drivers/adapter.types.js";
import { adapterFactory, type DeviceBackends } from "./drivers/create-adapter.js";
import { SimLights, SimScanner, SimSensors } from "./drivers/sim/sim.adapter.js";
import type { DeviceEvent, DeviceHealth, DeviceHub, LightCommand } from "./hub.types.js";
import type { LoadedStation } from "./station-file.js";
import type { StationFile } from "./station-file.schema.js";

/** Drives the simulated devices: what `pps-edge sim` and the station API's simulator call. */
export interface DeviceSimulator {
  /** A scan on the simulated scanner with this id, or of this seat. */
  scan(seatOrDeviceId: string, value: string): void;
  /** A button on a simulated light controller (`address` = the bin's light address). */
  press(deviceId: string, address: string, button?: "confirm" | "shortage"): void;
  /** A simulated sensor channel blocked (`true`) or clear; an event only when it changed. */
  sensor(deviceId: string, channel: string, active: boolean): void;
  /** The last light command each simulated light received, by device then address. */
  lights(): LightCommand[];
}

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
  const handlers = new Map<string, Set<(event: DeviceEvent) => void>>();
  const health = new DeviceHealthBook({
    metrics,
    log,
    now,
    onChange: () => opts.onHealthChange?.(),
    onError: (id, reason) => opts.onDeviceError?.(id, reason),
  });
  const build = adapterFactory({ backends: opts.backends ?? {}, log, now });
  const adapters = new Map<string, DeviceAdapter>();
  let started = false;

  function emit(event: DeviceEvent): void {
    metrics.inc("device_events_total", { device: event.deviceId, type: event.type });
    for (const set of handlers.values()) {
      for (const h of set) {
        try {
          h(event);
        } catch (err) {
          log.error({ err, device: event.deviceId }, "device event handler failed");
        }
      }
    }
  }

  for (const device of station.definition.devices) {
    const profile = station.profiles.get(device.profile) ?? null;
    // The status is bound after the transport is known; adapters only report once started.
    const ctx: AdapterContext = {
      deviceId: device.id,
      status: undefined as unknown as AdapterContext["status"],
      emit,
      now,
      log: log.child({ device: device.id }),
    };
    const built = build(ctx, device, profile);
    if (built === null) continue; // printers print through the label part, not the hub
    ctx.status = health.add({
      id: device.id,
      kind: device.kind,
      profile: device.profile,
      transport: built.transport,
    });
    adapters.set(device.id, built.adapter);
  }

  function sim<T>(id: string, type: abstract new (...args: never[]) => T, what: string): T {
    const a = adapters.get(id);
    if (a instanceof type) return a;
    throw new AppError("not_found", `no simulated ${what} '${id}'`, [
      { path: "deviceId", message: `not a simulated ${what}` },
    ]);
  }

  return {
    station: station.definition,
    source: station.source,

    async start() {
      if (started) return;
      started = true;
      for (const [id, adapter] of adapters) {
        try {
          adapter.start();
        } catch (err) {
          log.error({ err, device: id }, "device could not start");
        }
      }
      log.info(
        { devices: adapters.size, station: station.source ?? "embedded simulated station" },
        "devices started",
      );
    },

    async stop() {
      if (!started) return;
      started = false;
      await Promise.all(
        [...adapters].map(([id, a]) =>
          a.stop().catch((err) => log.warn({ err, device: id }, "device stop failed")),
        ),
      );
    },

    onEvent(owner, handler) {
      const set = handlers.get(owner) ?? new Set();
      set.add(handler);
      handlers.set(owner, set);
    },

    off(owner) {
      handlers.delete(owner);
    },

    async light(command) {
      const adapter = adapters.get(command.deviceId);
      if (!adapter) {
        throw new AppError("not_found", `no device '${command.deviceId}'`, [
          { path: "deviceId", message: "unknown" },
        ]);
      }
      if (!adapter.light) {
        throw new AppError("validation_failed", `device '${command.deviceId}' has no lights`, [
          { path: "deviceId", message: "not a ptl-controller" },
        ]);
      }
      const labels = { device: command.deviceId, outcome: "ok" };
      try {
        await adapter.light(command);
        metrics.inc("device_lights_total", labels);
      } catch (err) {
        metrics.inc("device_lights_total", {
          ...labels,
          outcome: isDeviceUnavailable(err) ? "unavailable" : "error",
        });
        throw err;
      }
    },

    health(): DeviceHealth[] {
      return health.list();
    },

    simulator(): DeviceSimulator {
      return {
        scan(target, value) {
          for (const [id, a] of adapters) {
            if (a instanceof SimScanner && (id === target || a.seat === target)) return a.scan(value);
          }
          throw new AppError("not_found", `no simulated scanner '${target}'`, [
            { path: "scanner", message: "not a simulated scanner id or a seat with one" },
          ]);
        },
        press(deviceId, address, button = "confirm") {
          sim(deviceId, SimLights, "light controller").press(address, button);
        },
        sensor(deviceId, channel, active) {
          sim(deviceId, SimSensors, "sensor").set(channel, active);
        },
        lights() {
          const out: LightCommand[] = [];
          for (const a of adapters.values()) if (a instanceof SimLights) out.push(...a.current.values());
          return out;
        },
      };
    },
  };
}
