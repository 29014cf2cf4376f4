/**
 * An in-process agent with a station engine on a fake hub: bins 1-8 lit at `ptl/<bin>`, beams `beam-<bin>`,
 * the IRT bin at `ptl/IRT` and `beam-IRT`, the front seat's scanner `scanner-front`.
 */
import pino from "pino";
import { createStationEngine, type StationEngine } from "../../../src/station/engine.js";
import { createTopology } from "../../../src/station/topology.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { FakeHub } from "./fake-hub.js";

export interface EngineRig {
  t: TestAgent;
  hub: FakeHub;
  engine: StationEngine;
  /** Moves the agent's clock past the debounce window, as between two scans a person makes. */
  later(): void;
  close(): Promise<void>;
}

/** `irtBin: false`: a station without an IRT bin (and so without a signal light of its own). */
export async function startEngineRig(opts: { irtBin?: boolean } = {}): Promise<EngineRig> {
  const t = await startTestAgent({ ppsId: "7" });
  const svc = t.agent.services;
  const hub = new FakeHub(() => t.clock.now);
  const ids = ["1", "2", "3", "4", "5", "6", "7", "8"];
  const engine = createStationEngine({
    hub,
    bus: svc.bus,
    operations: svc.operations,
    audits: svc.audits,
    lookup: svc.scanLookup,
    topology: createTopology({
      station: {
        seats: ["front", "back"],
        bins: ids.map((id) => ({
          id,
          light: { device: "ptl", address: id },
          sensor: { device: "curtain", channel: `beam-${id}` },
        })),
        ...(opts.irtBin === false
          ? {}
          : {
              irtBin: {
                id: "IRT",
                light: { device: "ptl", address: "IRT" },
                sensor: { device: "curtain", channel: "beam-IRT" },
              },
            }),
      },
      devices: [
        { id: "scanner-front", kind: "scanner", profile: "sim", seat: "front", transport: { type: "sim" } },
      ],
    }),
    debounceMs: 300,
    errorSignalMs: 20,
    now: () => t.clock.now,
    log: pino({ level: "silent" }),
  });
  engine.start();
  return {
    t,
    hub,
    engine,
    later: () => {
      t.clock.now += 1000;
    },
    async close() {
      engine.stop();
      await t.close();
    },
  };
}

export const tick = () => new Promise((r) => setImmediate(r));
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
