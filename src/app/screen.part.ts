/**
 * The operator screen as a part of the agent (docs/architecture.md#the-composition-root): it joins the
 * station engine, the screen's service doors, the device hub and the label printer to the screen's
 * publisher, actions, sessions and HTTP routes. Built after the station part, started after it (the
 * screen keys are made then) and stopped before it.
 */
import type { Logger } from "pino";
import type { Config } from "../config/config.schema.js";
import type { StationDeviceHub } from "../devices/device-hub.js";
import { AppError } from "../domain/errors.js";
import { type ScreenActionBody, screenRoutes } from "../http/routes/screen.routes.js";
import { screenPageRoutes } from "../http/routes/screen-page.routes.js";
import { screenGuard } from "../http/screen-auth.js";
import type { PackLabels } from "../labels/pack-labels.js";
import type { Services } from "../services/services.js";
import { CATALOGUES, isLang } from "../station/screen/messages.js";
import { createScreenActions } from "../station/screen/screen.actions.js";
import { createScreenPublisher, type ScreenPublisher } from "../station/screen/screen.publisher.js";
import type { StationPart } from "./station.part.js";

interface ScreenPartDeps {
  station: StationPart;
  hub: StationDeviceHub;
  services: Services;
  config: Config;
  dataDir: string;
  /** The label printer, when the agent prints (printing.mode station). */
  labels: PackLabels | undefined;
  now: () => number;
  log: Logger;
}

/** Seats whose scanner is simulated: the screen offers a scan box there (the walkthrough). */
function simulatedSeats(hub: StationDeviceHub): Set<string> {
  return new Set(
    hub.station.devices.flatMap((d) =>
      d.kind === "scanner" && d.seat !== undefined && d.transport.type === "sim" ? [d.seat] : [],
    ),
  );
}

/** Why the last label of each bin's order failed, by bin. */
function printErrors(deps: ScreenPartDeps): Record<string, string> {
  const failures = deps.labels?.failures();
  if (!failures?.size) return {};
  const out: Record<string, string> = {};
  for (const [bin, orders] of Object.entries(deps.services.screenReads.orders()))
    for (const o of orders) {
      const why = failures.get(o.id);
      if (why !== undefined) out[bin] = why;
    }
  return out;
}

function publisherFor(deps: ScreenPartDeps, simulated: Set<string>, log: Logger) {
  const { hub, config } = deps;
  const { lookup } = deps.station;
  const reads = deps.services.screenReads;
  return createScreenPublisher({
    engine: deps.station.engine,
    bus: deps.services.bus,
    reads: {
      mode: () => lookup.mode(),
      user: (seat) => lookup.user(seat),
      bins: () => lookup.bins(),
      orders: () => reads.orders(),
      pickLines: () => reads.pickLines(),
      pickWaiting: () => reads.pickWaiting(),
      racks: () => reads.racks(),
      putItems: () => reads.putItems(),
      audit: () => reads.audit(),
      operators: (n) => reads.operators(n),
      operatorLang: (name) => reads.operatorLang(name),
      sawOperator: (name, at) => reads.sawOperator(name, at),
      devices: () => hub.health(),
      printErrors: () => printErrors(deps),
    },
    station: {
      site: config.site,
      ppsId: config.ppsId,
      seats: hub.station.station.seats,
      language: config.station.language,
      stationPrinting: config.printing.mode === "station",
      simulatedScanners: simulated,
    },
    now: deps.now,
    log,
  });
}

function actionsFor(deps: ScreenPartDeps, publisher: ScreenPublisher, simulated: Set<string>) {
  const { engine, lookup } = deps.station;
  const reads = deps.services.screenReads;
  return createScreenActions({
    engine,
    ops: deps.services.operations,
    completePut: (bin) => lookup.bins().find((b) => b.id === bin)?.completePut ?? null,
    reprint:
      deps.config.printing.mode === "station"
        ? (bin) => deps.labels?.reprint((reads.orders()[bin] ?? []).map((o) => o.id))
        : null,
    user: (seat) => lookup.user(seat),
    setOperatorLang: (name, lang) => {
      reads.setOperatorLang(name, lang);
      publisher.changed();
    },
    simulatedScan: (seat, barcode) => {
      if (!simulated.has(seat))
        throw new AppError("forbidden", `seat ${seat} has a real scanner: scan with it`, [
          { path: "type", message: "only where the seat's scanner is simulated" },
        ]);
      deps.hub.simulator().scan(seat, barcode);
    },
    record: publisher.record,
  });
}

export function createScreenPart(deps: ScreenPartDeps) {
  const log = deps.log.child({ part: "screen" });
  const seats = deps.hub.station.station.seats;
  const simulated = simulatedSeats(deps.hub);
  const publisher = publisherFor(deps, simulated, log);
  const actions = actionsFor(deps, publisher, simulated);
  const sessions = deps.services.screenSessions;
  const port = {
    seats,
    state: publisher.state,
    subscribe: publisher.subscribe,
    act: (seat: string, a: ScreenActionBody) => actions.run(seat, a),
  };
  const catalogue = (lang: string) => (isLang(lang) ? CATALOGUES[lang] : undefined);
  return {
    publisher,
    sessions,
    routes: [
      screenRoutes(port, screenGuard(deps.services.auth, sessions), sessions, deps.services.auth.track),
      screenPageRoutes({ seats, sessions, catalogue }),
    ],
    start(): void {
      sessions.ensureKeys(deps.dataDir, log);
      sessions.pruneExpired();
      publisher.start();
    },
    stop: () => publisher.stop(),
  };
}

export type ScreenPart = ReturnType<typeof createScreenPart>;
