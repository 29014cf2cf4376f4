/**
 * The station engine as a part of the agent: it joins the engine to the device hub, the services and
 * the station's HTTP routes (station/routes/: the station API's operations, and the scan, key-in and
 * simulator routes through the engine). agent.ts builds it after the hub, starts it with the other
 * parts and stops it before the hub.
 */
import type { Logger } from "pino";
import type { Config } from "../config/config.schema.js";
import type { StationDeviceHub } from "../devices/device-hub.js";
import { binSimulator } from "../devices/drivers/sim/simulator.js";
import type { Metrics } from "../metrics.js";
import type { Services } from "../services/services.js";
import { createStationEngine } from "../station/engine.js";
import { scanRoutes } from "../station/routes/scan.routes.js";
import { stationRoutes } from "../station/routes/station.routes.js";
import { createShiftShell } from "../station/shift/shift.shell.js";
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

  // the operators' sessions, their figures and the idle logout (docs/station.md#productivity-and-the-shift)
  const shift = createShiftShell({
    engine,
    bus: svc.bus,
    seats: topology.seats,
    seat: (name) => svc.repos.station.seat(name),
    shift: svc.shift,
    idleLogoutMs: deps.config.station.idleLogoutMs,
    idleWarningMs: deps.config.station.idleWarningMs,
    now: deps.now,
    log: deps.log.child({ part: "shift" }),
  });

  // the simulated devices, by bin as the station file wires them (devices/drivers/sim/simulator.ts)
  const sim = binSimulator(() => hub.simulator(), topology);

  return {
    engine,
    /** The operators' sessions at the seats: figures, idle warnings (the operator screen shows them). */
    shift,
    /** The station's seats, scanners, bins and lights (the operator screen asks the same). */
    topology,
    /** The simulated devices by seat and bin (the operator screen's scan box uses it too). */
    sim,
    /** What the engine reads of the station (the operator screen reads the same). */
    lookup,
    routes: [
      stationRoutes(svc.operations, () => svc.station.state(deps.now(), deps.config.site)),
      scanRoutes(engine, sim),
    ],
    start: () => {
      engine.start();
      shift.start();
    },
    stop: () => {
      shift.stop();
      engine.stop();
    },
  };
}

export type StationPart = ReturnType<typeof createStationPart>;
