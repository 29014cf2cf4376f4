/**
 * The agent as a list of parts over its foundation, in the order they start (each after what it
 * uses); they stop in the reverse order (part.ts). The MQTT sync starts before the HTTP server so it
 * stops after it: once no HTTP change can arrive, the last acknowledgements are recorded and the
 * station says OFFLINE. `listen: false` leaves out both network parts (in-process tests), and the
 * readiness and watchdog messages to systemd (systemd.part.ts), which only a listening agent sends.
 */
import type { AddressInfo } from "node:net";
import type { Hono } from "hono";
import type { AppEnv } from "../http/context.js";
import type { ReadinessCheck, StationStatus } from "../services/station/station-status.js";
import { requestOperations } from "../sync/request-operations.js";
import { requestSnapshots, stationSnapshot } from "../sync/snapshots.js";
import { createSync, type Sync } from "../sync/sync.js";
import { agentStatus } from "./agent-status.js";
import { backgroundParts } from "./background.part.js";
import { deadLettersPart } from "./dead-letters.part.js";
import type { Foundation } from "./foundation.js";
import { buildHttpApp, httpServerPart, readinessChecks } from "./http.part.js";
import { type PackLabels, packLabelsFor } from "./pack-labels.part.js";
import type { Part } from "./part.js";
import { revocationPart } from "./revocation.part.js";
import { createScreenPart, type ScreenPart } from "./screen.part.js";
import { createStationPart, type StationPart } from "./station.part.js";
import { systemdPart } from "./systemd.part.js";

export interface Assembled {
  parts: Part[];
  app: Hono<AppEnv>;
  sync: Sync;
  station: StationPart;
  screen: ScreenPart;
}

function buildSync(f: Foundation, status: () => StationStatus): Sync {
  const { svc, config, now } = f;
  return createSync({
    config,
    sqlite: f.handle.sqlite,
    outbox: svc.repos.outbox,
    bus: svc.bus,
    unitOfWork: svc.unitOfWork,
    operations: requestOperations(svc, { dataDir: f.dataDir, now, status }),
    stationSnapshot: stationSnapshot(svc, config.site, now),
    requests: requestSnapshots(svc, f.handle.sqlite, {
      retainTerminalSeconds: config.mqtt.retainTerminalSeconds,
      now,
    }),
    metrics: f.metrics,
    // throttled like the token endpoint (docs/security.md#login-policy), keyed by the client's address; the
    // user's role decides what it may do (sync/broker-acl.ts)
    verifyBrokerUser: (username, password, address) => svc.auth.brokerLogin(username, password, address),
    brokerRefused: ({ username, address, reason }) =>
      svc.securityLog.refused({
        kind: "login_failed",
        channel: "mqtt",
        username,
        address,
        detail: { reason },
      }),
    brokerAccess: { onForbidden: svc.auth.access.onForbidden, track: svc.auth.track },
    log: f.log,
    now,
  });
}

export function assemble(
  f: Foundation,
  opts: { listen: boolean; listening: (a: AddressInfo) => void },
): Assembled {
  const { hub, svc } = f;
  // request/health_check answers what `pps-edge status` says; the checks need the sync built first
  let checks: () => ReadinessCheck[] = () => [];
  const sync = buildSync(
    f,
    agentStatus(f, () => checks()),
  );
  checks = () => readinessChecks(f, sync);
  // a dead-letter replay moves the delivery cursor back: the publisher reads again from it
  svc.deadLetters.useRedelivery(sync.redelivery);
  // the station engine: device events and scans → station operations → lights
  const station = createStationPart({
    hub,
    services: svc,
    config: f.config,
    now: f.now,
    log: f.log,
    metrics: f.metrics,
  });
  let labels: PackLabels | undefined;
  // the operator screen: each seat's state pushed to its page, taps through the engine
  const screen = createScreenPart({
    ...f,
    station,
    hub,
    services: svc,
    labels: () => labels,
  });
  labels = packLabelsFor(f, screen.printed);
  const app = buildHttpApp(f, sync, [station.routes, ...screen.routes]);
  const parts: Part[] = [
    // an absent device is reported and retried, never fatal (docs/architecture.md#devices-and-firmware-profiles)
    { name: "devices", start: () => hub.start(), stop: () => hub.stop() },
    ...backgroundParts(f),
    ...(labels ? [{ name: "pack labels", start: () => labels?.start(), stop: () => labels?.stop() }] : []),
    { name: "station engine", start: () => station.start(), stop: () => station.stop() },
    { name: "operator screen", start: () => screen.start(), stop: () => screen.stop() },
    // a user removed or changed by the command line loses open streams and MQTT connections at once
    revocationPart(svc.auth, f.log),
    // a replay of dead letters asked for by the command line is carried out within a second
    deadLettersPart(svc.deadLetters, f.log),
    ...(opts.listen
      ? [
          { name: "mqtt sync", start: () => sync.start(), stop: () => sync.stop() },
          httpServerPart(f, app, opts.listening),
          // last: READY=1 once everything above is up; first to stop, with STOPPING=1
          systemdPart(f, sync),
        ]
      : []),
  ];
  return { parts, app, sync, station, screen };
}
