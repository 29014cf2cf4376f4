/**
 * The composition root (docs/architecture.md#the-composition-root): config → the foundation (station
 * file, database, devices, services) → the parts, started in dependency order and stopped in reverse
 * (parts/). Constructing an agent does nothing; `start()` opens and starts; `stop()` undoes it.
 */
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import type { Hono } from "hono";
import type { Config } from "./config/config.schema.js";
import type { DatabaseHandle } from "./db/open.js";
import type { StationDeviceHub } from "./devices/device-hub.js";
import type { AppEnv } from "./http/context.js";
import { createLogger, type Logger } from "./log.js";
import { Metrics } from "./metrics.js";
import { type Assembled, assemble } from "./parts/assemble.js";
import { type AgentContext, DB_FILE, type Foundation, openFoundation } from "./parts/foundation.js";
import { type Part, startParts, stopParts } from "./parts/part.js";
import type { ScreenPart } from "./parts/screen.part.js";
import type { Services } from "./services/container.js";
import type { Sync } from "./sync/sync.js";

export { DB_FILE };

export interface AgentOptions {
  log?: Logger;
  /** Injected clock (epoch ms); tests move time forward to expire tokens. */
  now?: () => number;
  /** Waits before a delayed failed login is answered (docs/security.md#login-policy); tests record instead. */
  sleep?: (ms: number) => Promise<void>;
}

interface Running {
  foundation: Foundation;
  assembled: Assembled;
  started: Part[];
}

export function createAgent(config: Config, opts: AgentOptions = {}) {
  const log = opts.log ?? createLogger(config);
  const ctx: AgentContext = {
    config,
    log,
    now: opts.now ?? Date.now,
    metrics: new Metrics(),
    dataDir: resolve(config.dataDir),
    ...(opts.sleep ? { sleep: opts.sleep } : {}),
  };
  let running: Running | undefined;
  const mustRun = (): Running => {
    if (!running) throw new Error("agent not started");
    return running;
  };

  return {
    get app(): Hono<AppEnv> {
      return mustRun().assembled.app;
    },
    /** The use cases, for the CLI, benchmarks and tests that seed data without HTTP. */
    get services(): Services {
      return mustRun().foundation.svc;
    },
    get db(): DatabaseHandle {
      return mustRun().foundation.handle;
    },
    /** The device hub (scanners, lights, sensors and their health; `simulator()` for simulated ones). */
    get devices(): StationDeviceHub {
      return mustRun().foundation.hub;
    },
    /** The MQTT sync (its broker URL and connection state), once started. */
    get sync(): Sync {
      return mustRun().assembled.sync;
    },
    /** The operator screen (its publisher and sessions), once started. */
    get screen(): ScreenPart {
      return mustRun().assembled.screen;
    },
    metrics: ctx.metrics,
    log,
    /** The address the HTTP server listens on, once started. */
    address: undefined as AddressInfo | undefined,

    /** `start(false)` opens no network server and no connection: no HTTP, no MQTT (in-process tests). */
    async start(listen = true): Promise<void> {
      const t0 = performance.now();
      const foundation = await openFoundation(ctx);
      const assembled = assemble(foundation, {
        listen,
        listening: (a) => {
          this.address = a;
          foundation.svc.reports.listeningOn(a.port);
        },
      });
      try {
        running = { foundation, assembled, started: await startParts(assembled.parts, log) };
      } catch (err) {
        foundation.close();
        throw err;
      }
      log.info(
        { address: this.address, dataDir: ctx.dataDir, ms: Math.round(performance.now() - t0) },
        "pps-edge ready",
      );
    },

    async stop(): Promise<void> {
      const r = running;
      running = undefined;
      if (!r) return;
      await stopParts(r.started, log);
      r.foundation.close();
      log.info("pps-edge stopped");
    },
  };
}

export type Agent = ReturnType<typeof createAgent>;
