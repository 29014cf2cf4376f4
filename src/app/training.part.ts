/**
 * Training (docs/station.md#training): a second station in the same process, built from the same
 * composition as the agent's own (foundation, station engine, operator screen) over a database of its
 * own under `<dataDir>/training/`, the embedded simulated devices, no MQTT, no webhooks, no printing and
 * no HTTP server. A seat in training is served by it at its own screen address (training-port.ts);
 * nothing it does reaches the station's database, the broker or a webhook. It is opened when the first
 * seat enters training, starts from the training scenario (training-scenario.ts) every time it opens or
 * starts over, and is closed with the agent. Which seats are in training is kept in the station's
 * database (`training_seats`): a restart puts them back, with `station.trainingSeats`. A training seat's
 * own bins (their lights, buttons and beams) follow it (training-devices.ts, docs/station.md#bins-of-a-seat).
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config/config.schema.js";
import type { Sqlite } from "../db/open.js";
import type { StationDeviceHub } from "../devices/device-hub.js";
import type { DeviceEvent, LightCommand } from "../devices/hub.types.js";
import { AppError, isAppError } from "../domain/errors.js";
import { Metrics } from "../metrics.js";
import { StartError } from "../start-error.js";
import type { ScreenPort } from "../station/screen/routes/screen.routes.js";
import { createScreenPart } from "../station/screen/screen.part.js";
import { createTrainingScreenPort, type TrainingScreenPort } from "../station/screen/training-port.js";
import type { StationMode } from "../station/seat.types.js";
import { createTopology, type StationTopology } from "../station/topology.js";
import type { TrainingInput } from "../station/training-bins.js";
import { backgroundParts } from "./background.part.js";
import { type AgentContext, type Foundation, openFoundation } from "./foundation.js";
import { type Part, startParts, stopParts } from "./lifecycle.js";
import { createStationPart } from "./station.part.js";
import { createTrainingDevices } from "./training-devices.js";
import {
  defaultTrainingScenario,
  readTrainingScenario,
  scenarioMode,
  seedTraining,
  type TrainingScenario,
} from "./training-scenario.js";

/** The training station's data folder, inside the agent's. */
export const TRAINING_DIR = "training";

interface Layout {
  seats: readonly string[];
  bins: readonly string[];
}

/**
 * The training station's config: the station's seats and bins on the embedded simulated devices, its
 * own data folder, MQTT off, no webhook endpoints, nothing printed (the bins' labels are not waited for),
 * put staging with nobody logged in.
 */
export function trainingConfigOf(config: Config, layout: Layout, dataDir: string, mode: StationMode): Config {
  const { file: _realDevices, ...station } = config.station;
  return {
    ...config,
    dataDir,
    station: {
      ...station,
      seats: [...layout.seats],
      bins: [...layout.bins],
      initialMode: mode,
      // the scenario's put is staged before anybody logs in
      stagingWithLogout: true,
      trainingSeats: [],
    },
    mqtt: { ...config.mqtt, url: "off" },
    webhooks: { ...config.webhooks, endpoints: [] },
    printing: { ...config.printing, mode: "external" },
  };
}

interface TrainingStation {
  port: ScreenPort;
  /** A scan of the seat's own scanner goes here while the seat is in training. */
  scan(seat: string, barcode: string, source: string): void;
  /** A button or beam of a bin that follows its seat into training (docs/station.md#bins-of-a-seat). */
  input(input: TrainingInput): void;
  /** The training station's database (tests read it). */
  sqlite: Sqlite;
  close(): Promise<void>;
}

/** A scenario the agent refuses to seed: the training does not open, and the answer names the file's part. */
async function seed(f: Foundation, scenario: TrainingScenario, file: string | undefined): Promise<void> {
  try {
    const { initialMode, seats } = f.config.station;
    await seedTraining(f.svc, scenario, f.config.ppsId, initialMode, seats[0]);
  } catch (e) {
    if (!isAppError(e) || file === undefined) throw e;
    throw new AppError(
      "invalid_state",
      `the training scenario ${file} (station.trainingScenario) cannot be seeded: ${e.message}`,
      e.errors.map((x) => ({ ...x, path: `station.trainingScenario.${x.path}` })),
    );
  }
}

async function openTrainingStation(
  real: AgentContext,
  layout: Layout,
  written: TrainingScenario | undefined,
  mode: StationMode | undefined,
  /** each light command of the training station, by bin (docs/station.md#bins-of-a-seat) */
  practised: (binId: string, cmd: LightCommand) => void,
) {
  const dataDir = join(real.dataDir, TRAINING_DIR);
  // every opening starts over: what the last training left is practice, not state
  rmSync(dataDir, { recursive: true, force: true });
  const scenario = written ?? defaultTrainingScenario(layout.bins);
  const config = trainingConfigOf(real.config, layout, dataDir, scenarioMode(scenario, mode));
  const log = real.log.child({ training: true });
  const ctx: AgentContext = { config, log, now: real.now, metrics: new Metrics(), dataDir };
  const f = await openFoundation(ctx, { credentials: false });
  try {
    await seed(f, scenario, real.config.station.trainingScenario);
    // the training's light commands also reach the real lights of the bins that follow a training seat
    const own = createTopology(f.hub.station);
    const hub = {
      ...f.hub,
      light: (cmd: LightCommand) => {
        const binId = own.binOfLight(cmd.deviceId, cmd.address);
        if (binId !== null) practised(binId, cmd);
        return f.hub.light(cmd);
      },
    };
    const station = createStationPart({ ...f, hub, services: f.svc });
    const screen = createScreenPart({
      ...f,
      engine: station.engine,
      topology: station.topology,
      simulator: station.sim,
      lookup: station.lookup,
      store: f.svc.repos.screen,
      services: f.svc,
      labels: undefined,
      training: true,
    });
    const parts: Part[] = [
      { name: "training devices", start: () => f.hub.start(), stop: () => f.hub.stop() },
      ...backgroundParts(f),
      { name: "training station engine", start: () => station.start(), stop: () => station.stop() },
      { name: "training operator screen", start: () => screen.start(), stop: () => screen.stop() },
    ];
    const started = await startParts(parts, log);
    const opened: TrainingStation = {
      port: screen.port,
      scan: (seat, barcode, source) => {
        station.engine.scan(seat, barcode, source);
      },
      input: (i) => {
        try {
          if (i.kind === "press") station.sim.press({ ppsBinId: i.binId }, i.button);
          else station.sim.sensor({ ppsBinId: i.binId }, i.active);
        } catch (err) {
          log.warn({ err, input: i }, "training input of a bin not passed on");
        }
      },
      sqlite: f.handle.sqlite,
      async close() {
        await stopParts(started, log);
        f.close();
      },
    };
    return opened;
  } catch (err) {
    f.close();
    throw err;
  }
}

/** A training seat while its station starts over: nothing is served, nothing falls through to the station. */
function startingOver(seats: readonly string[]): ScreenPort {
  const refuse = (): never => {
    throw new AppError("not_ready", "the training starts over: try again in a moment", [
      { path: "seat", message: "in training" },
    ]);
  };
  return { seats, state: refuse, subscribe: () => () => {}, act: refuse };
}

export interface TrainingDeps {
  ctx: AgentContext;
  layout: Layout;
  /** Whether an operator is logged in at the seat on the station itself: such a seat cannot enter training. */
  loggedIn(seat: string): boolean;
  /** The station's own devices: a training seat's bins follow it (docs/station.md#bins-of-a-seat). */
  hub: StationDeviceHub;
  /** A seat left training: its bins may be given to waiting orders again. */
  binsFreed?: () => void;
  /** The seats in training as kept in the station's database, so a restart keeps them (docs/station.md#training). */
  kept: { seats(): string[]; set(seat: string, training: boolean): void };
}

/**
 * The seats put in training before the restart, besides the configured ones: still seats of the
 * station, and with nobody logged in at the station's seat (else it works against the station, said in
 * the log).
 */
function keptSeats(deps: TrainingDeps, configured: readonly string[]): string[] {
  const { layout, ctx } = deps;
  return deps.kept.seats().filter((seat) => {
    if (configured.includes(seat) || !layout.seats.includes(seat)) return false;
    if (!deps.loggedIn(seat)) return true;
    ctx.log.warn(
      { seat },
      "seat kept in training has an operator logged in at the station: it leaves training",
    );
    deps.kept.set(seat, false);
    return false;
  });
}

/**
 * At the start: the configured seats (every one a seat of the station, else the start stops naming the
 * key), then those kept in training before the restart; a scenario the station cannot seed stops it.
 */
async function startSeats(deps: TrainingDeps, enter: (seat: string) => Promise<void>): Promise<void> {
  const { layout } = deps;
  const { trainingSeats, trainingScenario } = deps.ctx.config.station;
  const unknown = trainingSeats.filter((s) => !layout.seats.includes(s));
  if (unknown.length > 0)
    throw new StartError(
      `station.trainingSeats names no seat of the station: ${unknown.join(", ")}`,
      "station.trainingSeats",
      `name seats of the station (${layout.seats.join(", ")})`,
    );
  try {
    for (const seat of trainingSeats) await enter(seat);
    for (const seat of keptSeats(deps, trainingSeats)) await enter(seat);
  } catch (e) {
    if (!isAppError(e) || trainingScenario === undefined) throw e;
    throw new StartError(e.message, "station.trainingScenario", "correct the scenario file", { cause: e });
  }
}

/** The station's devices of the training seats' own bins (docs/station.md#bins-of-a-seat). */
function seatBins(deps: TrainingDeps, seats: ReadonlySet<string>) {
  return createTrainingDevices({
    hub: deps.hub,
    topology: createTopology(deps.hub.station),
    seats: () => seats,
    binsFreed: deps.binsFreed,
    log: deps.ctx.log,
  });
}

export function createTraining(deps: TrainingDeps) {
  const { ctx, layout } = deps;
  const seats = new Set<string>();
  let station: TrainingStation | undefined;
  let router: TrainingScreenPort | undefined;
  // one change at a time: entering, leaving and starting over wait for each other
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const next = queue.then(fn, fn);
    queue = next.catch(() => {});
    return next;
  };
  const paused = startingOver(layout.seats);
  let resetting = false;
  const devices = seatBins(deps, seats);

  const portOf = (seat: string): ScreenPort | null => {
    if (!seats.has(seat)) return null;
    return resetting || !station ? paused : station.port;
  };

  const mustSeat = (seat: string) => {
    if (!layout.seats.includes(seat))
      throw new AppError("not_found", `no seat '${seat}'`, [{ path: "seat", message: "unknown seat" }]);
  };

  // the scenario file is read at the start: a bad one stops it (training-scenario.ts)
  let scenario: TrainingScenario | undefined;

  async function ensureOpen(mode?: StationMode): Promise<TrainingStation> {
    if (station) return station;
    const t0 = performance.now();
    station = await openTrainingStation(ctx, layout, scenario, mode, devices.practised);
    devices.opened();
    ctx.log.info({ ms: Math.round(performance.now() - t0) }, "training station opened from its scenario");
    return station;
  }

  async function enter(seat: string): Promise<void> {
    if (seats.has(seat)) return;
    if (deps.loggedIn(seat))
      throw new AppError("invalid_state", `an operator is logged in at seat ${seat}: log out first`, [
        { path: "seat", message: "no operator may be logged in at the station's seat" },
      ]);
    await ensureOpen();
    seats.add(seat);
    devices.entered(seat);
    router?.moved(seat);
    ctx.log.warn({ seat }, "seat in training: it works against the training station");
  }

  function leave(seat: string): void {
    if (!seats.has(seat)) return;
    deps.kept.set(seat, false);
    seats.delete(seat);
    devices.left(seat);
    router?.moved(seat);
    ctx.log.warn({ seat }, "seat out of training: it works against the station again");
  }

  const view = () => ({ seats: layout.seats.filter((s) => seats.has(s)) });

  /** Puts a seat in or out of training; the seat's open screens follow at once. */
  function set(seat: string, training: boolean) {
    mustSeat(seat);
    return serial(async () => {
      // kept for a restart only when put in training here: `station.trainingSeats` says its own
      if (training) {
        await enter(seat);
        deps.kept.set(seat, true);
      } else leave(seat);
      return view();
    });
  }

  /** Starts the training over from its scenario (in `mode`, else the scenario's); the seats stay in training. */
  function reset(mode?: StationMode) {
    return serial(async () => {
      resetting = true;
      try {
        const old = station;
        station = undefined;
        await old?.close();
        devices.closing();
        await ensureOpen(mode);
      } finally {
        resetting = false;
        for (const seat of seats) router?.moved(seat);
      }
      return view();
    });
  }

  return {
    /** Wraps the operator screen's own port: a seat in training is served by the training station. */
    portFor(own: ScreenPort): ScreenPort {
      // the screen's supervised taps enter, leave and start over as the admin's routes do
      router = createTrainingScreenPort(own, portOf, {
        set: (seat, on) => set(seat, on),
        reset: () => reset(),
      });
      return router.port;
    },
    /** The seats in training. */
    view,
    inTraining: (seat: string) => seats.has(seat),
    /**
     * The station's engine's light commands: true for one held back, as its bin follows a seat in
     * training (docs/station.md#bins-of-a-seat); kept either way, and written back when the seat leaves.
     */
    holdLight: (cmd: LightCommand): boolean => devices.hold(cmd),
    /** The bins no order is given while their seat trains (docs/station.md#bins-of-a-seat). */
    heldBins: (): ReadonlySet<string> => devices.held(),
    /**
     * The station's engine leaves a scan of a training seat's own scanner to the training station
     * (dropped while it starts over): a trainee's scan never acts on the station.
     */
    divert(e: DeviceEvent, topology: Pick<StationTopology, "seatOf">): boolean {
      // a button or beam of a bin that follows its seat into training (docs/station.md#bins-of-a-seat)
      if (e.type !== "scan") return devices.divert(e, (input) => !resetting && station?.input(input));
      const seat = topology.seatOf(e.deviceId);
      if (seat === null || !seats.has(seat)) return false;
      if (!resetting) station?.scan(seat, e.value, e.deviceId);
      return true;
    },
    set,
    reset,
    /** The training station's database while it is open (tests read it). */
    database: (): Sqlite | undefined => station?.sqlite,
    part(): Part {
      return {
        name: "training",
        // a seat meant to train must not work against the station instead
        critical: true,
        start: async () => {
          const { trainingScenario } = ctx.config.station;
          if (trainingScenario !== undefined) scenario = readTrainingScenario(trainingScenario);
          await startSeats(deps, (seat) => serial(() => enter(seat)));
        },
        stop: () =>
          serial(async () => {
            seats.clear();
            const old = station;
            station = undefined;
            await old?.close();
          }),
      };
    },
  };
}

export type Training = ReturnType<typeof createTraining>;
