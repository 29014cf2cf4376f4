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
import type { DeviceEvent, LightCommand } from "../devices/hub.types.js";
import type { Metrics } from "../metrics.js";
import type { Services } from "../services/services.js";
import { createStationEngine } from "../station/engine.js";
import { scanRoutes } from "../station/routes/scan.routes.js";
import { seatControlRoutes } from "../station/routes/seat-control.routes.js";
import { stationRoutes } from "../station/routes/station.routes.js";
import { createSeatWorkKeeper } from "../station/seat-work.shell.js";
import { createShiftShell } from "../station/shift/shift.shell.js";
import { createTopology, type StationTopology } from "../station/topology.js";

export function createStationPart(deps: {
  hub: StationDeviceHub;
  services: Services;
  config: Config;
  now: () => number;
  log: Logger;
  metrics: Metrics;
  /** Takes a device event away from the engine (a scanner of a seat in training: docs/station.md#training). */
  divert?: (e: DeviceEvent, topology: StationTopology) => boolean;
  /** Holds back a light command (a bin that follows a seat into training: docs/station.md#bins-of-a-seat). */
  holdLight?: (command: LightCommand) => boolean;
}) {
  const { services: svc } = deps;
  // the targets: p99 under 5 ms idle, under 20 ms with the API under load (docs/architecture.md#performance-targets)
  const scanToLight = deps.metrics.histogram(
    "station_scan_to_light_seconds",
    "From a scan reaching the station engine to the last light command it caused being written",
    [],
    [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1],
  );
  const topology = createTopology(deps.hub.station);
  const divert = deps.divert;
  // whether the last device event went elsewhere: the simulator's answer then has no outcome of the engine
  let diverted = false;
  const diverting: StationDeviceHub = divert
    ? {
        ...deps.hub,
        onEvent: (owner, fn) =>
          deps.hub.onEvent(owner, (e) => {
            diverted = divert(e, topology);
            if (!diverted) fn(e);
          }),
      }
    : deps.hub;
  const holdLight = deps.holdLight;
  const hub: StationDeviceHub = holdLight
    ? { ...diverting, light: (cmd) => (holdLight(cmd) ? Promise.resolve() : deps.hub.light(cmd)) }
    : diverting;
  const lookup = svc.scanLookup;
  const log = deps.log.child({ part: "station" });
  const seatWork = createSeatWorkKeeper({ store: svc.repos.screen, now: deps.now, log });
  const engine = createStationEngine({
    hub,
    bus: svc.bus,
    operations: svc.operations,
    audits: svc.audits,
    lookup,
    topology,
    debounceMs: deps.config.station.scanDebounceMs,
    timeZone: deps.config.timeZone,
    errorSignalMs: deps.config.station.errorSignalMs,
    now: deps.now,
    log,
    onScanLit: (seconds) => scanToLight.observe(seconds),
    pausedSeats: svc.seatControl.pausedSeats,
    pauseInput: (input, active) =>
      svc.seatControl.input(input.seats, input.device, input.channel, active, input.reason),
    onSeatState: seatWork.onSeatState,
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
      scanRoutes({ ...engine, last: () => (diverted ? null : engine.last()) }, sim),
      seatControlRoutes(svc.seatControl),
    ],
    start: () => {
      // before any input: what a restart did to the work lit at the seats (docs/station.md#after-a-restart)
      seatWork.recover();
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
