/**
 * The hub's adapters and their lifecycle: one adapter per declared device (printers excepted), each
 * with its own health entry, started one by one so a device that cannot start is logged while the
 * others run, and stopped together.
 */
import type { Logger } from "pino";
import type { DeviceHealthBook } from "./device-health.js";
import type { AdapterContext, DeviceAdapter } from "./drivers/adapter.types.js";
import type { adapterFactory } from "./drivers/create-adapter.js";
import type { DeviceHub } from "./hub.types.js";
import type { LoadedStation } from "./station-file/station-file.js";

/** The hub's adapters by device id. */
export type Adapters = Map<string, DeviceAdapter>;

export interface AdapterBuildDeps {
  station: LoadedStation;
  build: ReturnType<typeof adapterFactory>;
  health: DeviceHealthBook;
  emit: AdapterContext["emit"];
  now(): number;
  log: Logger;
}

export function buildAdapters(deps: AdapterBuildDeps): Adapters {
  const { station, build, health, emit, now, log } = deps;
  const adapters: Adapters = new Map();
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
  return adapters;
}

/** Start and stop of all adapters; each runs at most once until the other. */
export function adapterLifecycle(
  adapters: Adapters,
  log: Logger,
  source: string | null,
): Pick<DeviceHub, "start" | "stop"> {
  let started = false;
  return {
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
        { devices: adapters.size, stationFile: source ?? "embedded simulated station" },
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
  };
}
