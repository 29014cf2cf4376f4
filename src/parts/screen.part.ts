/**
 * The operator screen as a part of the agent (composition root, beside agent.ts and station.part.ts):
 * it joins the station engine, the repositories, the device hub and the label printer to the screen's
 * publisher, actions, sessions and HTTP routes. agent.ts builds it after the station part, starts it
 * with the other parts (the screen keys are made then) and stops it before the engine.
 */
import type { Logger } from "pino";
import type { Config } from "../config/config.schema.js";
import type { Sqlite } from "../db/open.js";
import { createScreenRepo } from "../db/screen.repo.js";
import { createScreenSessionsRepo } from "../db/screen-sessions.repo.js";
import type { StationDeviceHub } from "../devices/device-hub.js";
import { AppError } from "../domain/errors.js";
import { type ScreenActionBody, screenRoutes } from "../http/routes/screen.routes.js";
import { screenPageRoutes } from "../http/routes/screen-page.routes.js";
import { screenGuard } from "../http/screen-auth.js";
import { createScreenSessions } from "../services/auth/screen-sessions.js";
import type { Services } from "../services/container.js";
import { CATALOGUES, isLang } from "../station/screen/messages.js";
import { createScreenActions } from "../station/screen/screen.actions.js";
import { createScreenPublisher } from "../station/screen/screen.publisher.js";
import type { createPackLabels } from "./pack-labels.part.js";
import type { StationPart } from "./station.part.js";

type Labels = ReturnType<typeof createPackLabels>;

export function createScreenPart(deps: {
  station: StationPart;
  hub: StationDeviceHub;
  services: Services;
  sqlite: Sqlite;
  config: Config;
  dataDir: string;
  /** The label printer, when the agent prints (printing.mode station); built after this part. */
  labels: () => Labels | undefined;
  now: () => number;
  log: Logger;
}) {
  const { hub, services: svc, config } = deps;
  const { engine, lookup } = deps.station;
  const seats = hub.station.station.seats;
  const repo = createScreenRepo(deps.sqlite);
  const log = deps.log.child({ part: "screen" });
  const simulated = new Set(
    hub.station.devices.flatMap((d) =>
      d.kind === "scanner" && d.seat !== undefined && d.transport.type === "sim" ? [d.seat] : [],
    ),
  );

  /** Why the last label of each bin's order failed, by bin. */
  function printErrors(): Record<string, string> {
    const failures = deps.labels()?.failures();
    if (!failures?.size) return {};
    const out: Record<string, string> = {};
    for (const [bin, orders] of Object.entries(repo.orders()))
      for (const o of orders) {
        const why = failures.get(o.id);
        if (why !== undefined) out[bin] = why;
      }
    return out;
  }

  const publisher = createScreenPublisher({
    engine,
    bus: svc.bus,
    reads: {
      mode: () => lookup.mode(),
      user: (seat) => lookup.user(seat),
      bins: () => lookup.bins(),
      orders: () => repo.orders(),
      pickLines: () => repo.pickLines(),
      pickWaiting: () => repo.pickWaiting(),
      racks: () => repo.racks(),
      putItems: () => repo.putItems(),
      audit: () => repo.audit(),
      operators: (n) => repo.operators(n),
      operatorLang: (name) => repo.operatorLang(name),
      sawOperator: (name, at) => repo.sawOperator(name, at),
      devices: () => hub.health(),
      printErrors,
    },
    station: {
      site: config.site,
      ppsId: config.ppsId,
      seats,
      language: config.station.language,
      stationPrinting: config.printing.mode === "station",
      simulatedScanners: simulated,
    },
    now: deps.now,
    log,
  });

  const actions = createScreenActions({
    engine,
    ops: svc.operations,
    completePut: (bin) => lookup.bins().find((b) => b.id === bin)?.completePut ?? null,
    reprint:
      config.printing.mode === "station"
        ? (bin) => deps.labels()?.reprint((repo.orders()[bin] ?? []).map((o) => o.id))
        : null,
    user: (seat) => lookup.user(seat),
    setOperatorLang: (name, lang) => {
      repo.setOperatorLang(name, lang);
      publisher.changed();
    },
    simulatedScan: (seat, barcode) => {
      if (!simulated.has(seat))
        throw new AppError("forbidden", `seat ${seat} has a real scanner: scan with it`, [
          { path: "type", message: "only where the seat's scanner is simulated" },
        ]);
      hub.simulator().scan(seat, barcode);
    },
    record: publisher.record,
  });

  const sessions = createScreenSessions({
    repo: createScreenSessionsRepo(deps.sqlite),
    users: svc.repos.auth,
    seats,
    now: deps.now,
  });
  const guard = screenGuard(svc.auth, sessions);
  const port = {
    seats,
    state: publisher.state,
    subscribe: publisher.subscribe,
    act: (seat: string, a: ScreenActionBody) => actions.run(seat, a),
  };

  return {
    publisher,
    sessions,
    routes: [
      screenRoutes(port, guard, sessions),
      screenPageRoutes({
        seats,
        sessions,
        catalogue: (lang) => (isLang(lang) ? CATALOGUES[lang] : undefined),
      }),
    ],
    /** A print job ended: its bin's screen tile shows the outcome. */
    printed: () => publisher.changed(),
    start(): void {
      sessions.ensureKeys(deps.dataDir, log);
      sessions.pruneExpired();
      publisher.start();
    },
    stop: () => publisher.stop(),
  };
}

export type ScreenPart = ReturnType<typeof createScreenPart>;
