/**
 * The station engine as a part of the agent (composition root, beside agent.ts: it joins the engine
 * to the device hub, the services and the station API's scan, key-in and simulator routes). agent.ts
 * builds it after the hub, starts it with the other parts and stops it before the hub.
 */
import type { Logger } from "pino";
import type { Config } from "../config/config.schema.js";
import type { StationDeviceHub } from "../devices/device-hub.js";
import { AppError } from "../domain/errors.js";
import { type SimPort, scanRoutes } from "../http/routes/scan.routes.js";
import type { Metrics } from "../metrics.js";
import type { Services } from "../services/services.js";
import { createStationEngine } from "../station/engine.js";
import { createTopology } from "../station/topology.js";

export function createStationPart(deps: {
  hub: StationDeviceHub;
  services: Services;
  config: Config;
  now: () => number;
  log: Logger;
  metrics: Metrics;
}) {
  const { hub, services: svc } = deps;
  // the targets: p99 under 5 ms idle, under 20 ms with the API under load (docs/architecture.md#performance-targets)
  const scanToLight = deps.metrics.histogram(
    "station_scan_to_light_seconds",
    "From a scan reaching the station engine to the last light command it caused being written",
    [],
    [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1],
  );
  const topology = createTopology(hub.station);
  const lookup = svc.scanLookup;
  const engine = createStationEngine({
    hub,
    bus: svc.bus,
    operations: svc.operations,
    audits: svc.audits,
    lookup,
    topology,
    debounceMs: deps.config.station.scanDebounceMs,
    errorSignalMs: deps.config.station.errorSignalMs,
    now: deps.now,
    log: deps.log.child({ part: "station" }),
    onScanLit: (seconds) => scanToLight.observe(seconds),
  });

  const binOf = (ppsBinId: string) => {
    const bin = topology.bin(ppsBinId);
    if (!bin)
      throw new AppError("not_found", `no bin '${ppsBinId}'`, [{ path: "ppsBinId", message: "unknown bin" }]);
    return bin;
  };
  const none = (what: string) =>
    new AppError("not_found", `the bin has no ${what}`, [
      { path: "ppsBinId", message: `no ${what} declared` },
    ]);

  const sim: SimPort = {
    scan: (seat, barcode) => hub.simulator().scan(seat, barcode),
    press(target, button) {
      const s = hub.simulator();
      if (target.device !== undefined) return s.press(target.device, target.address ?? "", button);
      const bin = binOf(target.ppsBinId ?? "");
      if (bin.light) return s.press(bin.light.device, bin.light.address, button);
      if (!bin.button) throw none("button");
      // a DI input: pressed, then let go, as a finger does
      s.sensor(bin.button.device, bin.button.channel, true);
      s.sensor(bin.button.device, bin.button.channel, false);
    },
    sensor(target, active) {
      const s = hub.simulator();
      if (target.device !== undefined) return s.sensor(target.device, target.channel ?? "", active);
      const bin = binOf(target.ppsBinId ?? "");
      if (!bin.sensor) throw none("sensor");
      s.sensor(bin.sensor.device, bin.sensor.channel, active);
    },
    lights: () =>
      hub
        .simulator()
        .lights()
        .map((l) => ({ ppsBinId: topology.binOfLight(l.deviceId, l.address), ...l })),
  };

  return {
    engine,
    /** What the engine reads of the station (the operator screen reads the same). */
    lookup,
    routes: scanRoutes(engine, sim),
    start: () => engine.start(),
    stop: () => engine.stop(),
  };
}

export type StationPart = ReturnType<typeof createStationPart>;
