/**
 * The operator screen as a part of the agent (docs/architecture.md#the-composition-root): it joins the
 * station engine, its topology (seats, scanners, bins and their lights: station/topology.ts), the
 * screen's repository, the device hub and the label printer to the screen's publisher, actions,
 * sessions and HTTP routes. Built after the station part, started after it (the screen keys are made
 * then) and stopped before it.
 */
import type { Logger } from "pino";
import type { Config } from "../../config/config.schema.js";
import type { BinSimulator } from "../../devices/drivers/sim/simulator.js";
import type { DeviceHub } from "../../devices/hub.types.js";
import type { ScanLookup } from "../../services/scan-lookup/scan-lookup.service.js";
import type { Services } from "../../services/services.js";
import type { StationEngine } from "../engine.js";
import type { ShiftShell } from "../shift/shift.shell.js";
import type { StationTopology } from "../topology.js";
import { createScreenActions, type ScreenActionDeps } from "./actions.js";
import { withShownImages } from "./image-policy.js";
import { createLastConfirmed, type LastConfirmedMemory } from "./last-confirmed.js";
import { CATALOGUES, isLang } from "./messages/messages.js";
import { createScreenPublisher, type ScreenPublisher, type ScreenStore } from "./publisher.js";
import { screenPageRoutes } from "./routes/page.routes.js";
import { type ScreenPort, screenRoutes } from "./routes/screen.routes.js";
import { screenGuard } from "./routes/screen-auth.js";
import type { CentralLink } from "./state/station-types.js";
import { createSupervisorScan, type SupervisorScan } from "./supervisor-scan.js";

interface ScreenPartDeps {
  engine: StationEngine;
  /** The operators' sessions: the figures and the idle warning each seat shows; none: not shown. */
  shift?: Pick<ShiftShell, "productivity" | "idle" | "onChange" | "touch">;
  /** The station's seats, scanners and bins, as the engine resolves them. */
  topology: StationTopology;
  /** The simulated devices by seat, for the walkthrough's scan box. */
  simulator: Pick<BinSimulator, "scannerOf" | "scan">;
  /** What the engine reads of the station (the screen reads the same mode, operators and bins). */
  lookup: ScanLookup;
  /** The screen's repository, as it is. */
  store: ScreenStore;
  services: Pick<
    Services,
    "bus" | "operations" | "auth" | "screenSessions" | "budget" | "securityLog" | "audits" | "seatControl"
  >;
  /** The devices' health: a seat whose real scanner is down takes typed codes. */
  hub: Pick<DeviceHub, "health">;
  config: Config;
  dataDir: string;
  /** The label printer, when the agent prints (printing.mode station). */
  labels:
    | {
        failures(): ReadonlyMap<string, string>;
        reprint(orderIds: readonly string[], binId?: string): Promise<boolean>;
        forget(orderIds: readonly string[]): void;
        /** a pick+pack box closed as full, its label not printed yet (docs/station.md#bin-full-box-full) */
        boxWaiting?(binId: string): boolean;
        reprintBox?(binId: string): Promise<boolean>;
        forgetBox?(binId: string): void;
        boxFailures?(): ReadonlyMap<string, string>;
        /** the printer's own state (a Zebra's ~HS); undefined when it says none */
        printerState?(): { ok: boolean; cause: string | null } | undefined;
      }
    | undefined;
  now: () => number;
  log: Logger;
  /** The link to central and the outbox (sync.ts `link`), for the screen's notices. */
  link?: () => CentralLink | null;
  /** The training station's screen (docs/station.md#training): every state says so; it has no keys of its own. */
  training?: boolean;
  /** Routes the screen routes' seats elsewhere: a seat in training to the training station's screen. */
  portFor?: (own: ScreenPort) => ScreenPort;
}

/** Seats with a simulated scanner: the screen offers a scan box there (the walkthrough). */
function simulatedSeats(deps: ScreenPartDeps): Set<string> {
  return new Set(deps.topology.seats.filter((seat) => deps.simulator.scannerOf(seat) !== null));
}

/** Why the last label of each bin's order failed, by bin. */
function printErrors(deps: ScreenPartDeps): Record<string, string> {
  const failures = deps.labels?.failures();
  // a closed box's label that did not print holds its bin, which no longer lists the order
  const out: Record<string, string> = Object.fromEntries(deps.labels?.boxFailures?.() ?? []);
  if (!failures?.size) return out;
  for (const [bin, orders] of Object.entries(deps.store.orders()))
    for (const o of orders) {
      const why = failures.get(o.id);
      if (why !== undefined) out[bin] = why;
    }
  return out;
}

/** Each seat's scanners. */
function seatScanners(topology: StationTopology): Record<string, string[]> {
  return Object.fromEntries(topology.seats.map((seat) => [seat, [...topology.scannersOf(seat)]]));
}

/** The light controller of each order bin. */
function binLights(topology: StationTopology): Record<string, string> {
  return Object.fromEntries(
    topology.bins.flatMap((b) => {
      const light = topology.binLight(b);
      return light ? [[b, light.device] as const] : [];
    }),
  );
}

/** The devices of each bin's button and sensor (a module of their own, or the light's). */
function binInputs(topology: StationTopology): Record<string, string[]> {
  return Object.fromEntries(
    topology.bins.map((b) => {
      const def = topology.bin(b);
      return [b, [def?.button?.device, def?.sensor?.device].filter((d): d is string => d !== undefined)];
    }),
  );
}

/** The item a scanned text is a barcode of, with its description where the screen lists it. */
function itemOf(deps: ScreenPartDeps, barcode: string): { sku: string; description: string | null } | null {
  const found = deps.lookup.meanings(barcode).find((m) => m.kind === "item");
  if (found?.kind !== "item") return null;
  const rows = [...deps.store.pickLines(), ...deps.store.putItems()];
  return { sku: found.sku, description: rows.find((r) => r.sku === found.sku)?.description ?? null };
}

function publisherFor(
  deps: ScreenPartDeps,
  simulated: Set<string>,
  log: Logger,
  supervisorScan: (seat: string) => ReturnType<SupervisorScan["answer"]>,
  confirmed: LastConfirmedMemory,
) {
  const { hub, config, lookup, topology } = deps;
  return createScreenPublisher({
    engine: deps.engine,
    bus: deps.services.bus,
    reads: {
      // item images only from the configured hosts (image-policy.ts)
      ...withShownImages(deps.store, config.station.imageHosts ?? []),
      mode: lookup.mode,
      user: lookup.user,
      bins: lookup.bins,
      devices: hub.health,
      printErrors: () => printErrors(deps),
      printerState: () => deps.labels?.printerState?.() ?? null,
      storageBudgetSpent: () => deps.services.budget?.check().ok === false,
      item: (barcode) => itemOf(deps, barcode),
      link: () => deps.link?.() ?? null,
      undoable: deps.engine.canUndo,
      queuedAudit: () => deps.store.queuedAudit?.() ?? null,
      pauses: deps.services.seatControl.pauses,
      pausedSeats: deps.services.seatControl.pausedSeats,
      message: (seat) => deps.services.seatControl.openMessages().find((m) => m.seat === seat) ?? null,
      ...(deps.shift ? { productivity: deps.shift.productivity, idle: deps.shift.idle } : {}),
      supervisorScan,
      lastConfirmed: confirmed.of,
    },
    station: {
      site: config.site,
      ppsId: config.ppsId,
      seats: topology.seats,
      language: config.station.language,
      stationPrinting: config.printing.mode === "station",
      simulatedScanners: simulated,
      errorSignalMs: config.station.errorSignalMs,
      signalBin: topology.signalBin(),
      damageBin: config.station.damageBin,
      irtBin: topology.irtBin,
      scanners: seatScanners(topology),
      binLights: binLights(topology),
      binInputs: binInputs(topology),
      training: deps.training === true,
    },
    now: deps.now,
    log,
  });
}

function actionsFor(
  deps: ScreenPartDeps,
  publisher: ScreenPublisher,
  simulated: Set<string>,
  log: Logger,
  prompt: NonNullable<ScreenActionDeps["prompt"]>,
  confirmed: LastConfirmedMemory,
) {
  const { engine, lookup, store, labels } = deps;
  const boxWaiting = (bin: string) => labels?.boxWaiting?.(bin) === true;
  const waitingLabel = (bin: string) => {
    const b = lookup.bins().find((x) => x.id === bin);
    return b?.state === "complete" && b.printState === "waiting"
      ? (store.orders()[bin] ?? []).map((o) => o.id)
      : [];
  };
  const note = (event: string, fields: Record<string, unknown>) =>
    log.warn({ event, ...fields }, `operator screen: ${event.replace("_", " ")}`);
  return createScreenActions({
    engine,
    ops: deps.services.operations,
    audits: {
      queued: () => store.queuedAudit?.() ?? null,
      begin: (id, seat) => deps.services.audits.begin(id, seat),
    },
    screen: (seat) => {
      const s = publisher.state(seat);
      return { version: s.version, problems: s.problems, next: publisher.next(seat) };
    },
    waitingLabel,
    forgetLabels: (ids) => {
      labels?.forget(ids);
      publisher.changed();
    },
    note,
    completePut: (bin) => lookup.bins().find((b) => b.id === bin)?.completePut ?? null,
    reprint:
      deps.config.printing.mode === "station" && labels
        ? (bin) =>
            boxWaiting(bin) && labels.reprintBox
              ? labels.reprintBox(bin)
              : labels.reprint(waitingLabel(bin), bin)
        : null,
    // a closed box's label skipped: its bin is let go (docs/station.md#bin-full-box-full)
    skipBox: (bin) => {
      if (!boxWaiting(bin)) return false;
      deps.services.operations.boxLabelled(bin);
      labels?.forgetBox?.(bin);
      publisher.changed();
      return true;
    },
    user: lookup.user,
    setOperatorLang: (name, lang) => {
      store.setOperatorLang(name, lang);
      publisher.changed();
    },
    simulatedScan: (seat, barcode) => {
      if (simulated.has(seat)) {
        deps.simulator.scan(seat, barcode);
        return undefined;
      }
      // a code typed at the seat, its real scanner down or not: a label the scanner cannot read is
      // typed instead (docs/station.md#paths-of-a-shift, "Unscannable")
      return engine.scan(seat, barcode, `screen:${seat}`);
    },
    acknowledge: (seat) => {
      const had = store.forgetLost?.(seat) ?? false;
      publisher.changed();
      return had;
    },
    record: (seat, input, outcome) => {
      // a tapped station operation is the operator at work too (docs/station.md#idle-logout)
      deps.shift?.touch(seat);
      publisher.record(seat, input, outcome);
    },
    control: deps.services.seatControl,
    prompt,
    corrections: {
      last: confirmed,
      correctPut: deps.services.operations.correctPut,
      bins: deps.topology.bins,
      showMove: engine.showBinMove,
      user: lookup.user,
      note,
      record: (seat, input, outcome) => {
        deps.shift?.touch(seat);
        publisher.record(seat, input, outcome);
      },
    },
  });
}

export function createScreenPart(deps: ScreenPartDeps) {
  const log = deps.log.child({ part: "screen" });
  const seats = deps.topology.seats;
  const simulated = simulatedSeats(deps);
  const { auth, screenSessions: sessions } = deps.services;
  const supervisor = {
    authorise: auth.authoriseSupervisor,
    operator: deps.lookup.user,
    record: deps.services.securityLog.record,
  };
  // a supervisor's badge on the seat's scanner, for the seat's open prompt (supervisor-scan.ts)
  const scan: SupervisorScan = createSupervisorScan({
    supervisor,
    act: (seat, tap, by) => actions.run(seat, tap, by),
    changed: () => publisher.changed(),
    version: (seat) => publisher.state(seat).version,
    log,
  });
  // each seat's last confirmed pick or put, for a supervisor's correction (docs/station.md#undo)
  const confirmed = createLastConfirmed((order) => {
    for (const [bin, orders] of Object.entries(deps.store.orders()))
      if (orders.some((o) => o.id === order)) return bin;
    return null;
  });
  deps.engine.watchWork(confirmed.worked);
  const publisher = publisherFor(deps, simulated, log, scan.answer, confirmed);
  const actions = actionsFor(deps, publisher, simulated, log, scan.prompt, confirmed);
  deps.shift?.onChange(publisher.changed);
  const port: ScreenPort = {
    seats,
    state: publisher.state,
    subscribe: publisher.subscribe,
    act: actions.run,
    supervisor,
  };
  const served = deps.portFor ? deps.portFor(port) : port;
  const catalogue = (lang: string) => (isLang(lang) ? CATALOGUES[lang] : undefined);
  return {
    publisher,
    /** The seats' state, stream and taps as the screen routes take them (the training station's are served so). */
    port,
    sessions,
    routes: [
      screenRoutes(served, screenGuard(auth, sessions), sessions, auth.track),
      screenPageRoutes({ seats, sessions, catalogue, imageHosts: deps.config.station.imageHosts ?? [] }),
    ],
    start(): void {
      if (!deps.training) sessions.ensureKeys(deps.dataDir, log, deps.config.station.kioskKeysDir);
      sessions.pruneExpired();
      publisher.start();
      deps.engine.onSupervisorBadge(scan.badge);
    },
    stop: () => {
      deps.engine.onSupervisorBadge(undefined);
      publisher.stop();
    },
  };
}

export type ScreenPart = ReturnType<typeof createScreenPart>;
