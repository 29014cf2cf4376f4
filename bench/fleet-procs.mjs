// The child processes of the fleet benchmarks (fleet.bench.mjs on one Mosquitto, fleet-cluster.bench.mjs
// on a cluster): a real agent per station (servers/fleet-agent.mjs, told over stdin when to produce),
// the reference consumer as an integrator runs it (tsx; its JSON lines on stdout, its log on stderr).
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import Database from "better-sqlite3";
import { watchDeliveries } from "./fleet-watch.mjs";
import { AGENT_NODE_FLAGS, agentFlags, BENCH_DIR, niced } from "./lib.mjs";

const CONSUMER = join(BENCH_DIR, "..", "examples", "central-consumer", "src", "main.ts");
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function until(what, done, timeoutMs) {
  const t0 = Date.now();
  while (!done()) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
  return Date.now() - t0;
}

/**
 * One station as its own process, syncing to `url` (`mqtt` adds `mqtt.*` settings, e.g. a cluster's
 * `failoverUrls`). `lastSeq` is the newest notification it committed, `deliveredSeq` the broker's
 * acknowledgements as the agent stored them (its delivery cursor, written every 100 ms). `stationFile`:
 * its devices (else simulated); `nice`: its niceness (lib.mjs `niced`).
 */
export function startFleetAgent(dir, url, site, ppsId, mqtt = {}, { stationFile, nice = 0 } = {}) {
  const dataDir = join(dir, `agent-${ppsId}`);
  mkdirSync(dataDir);
  const script = join(BENCH_DIR, "servers", "fleet-agent.mjs");
  const args = [script, dataDir, url, site, ppsId, ...(stationFile ? [stationFile] : [])];
  const child = spawn(...niced(nice, process.execPath, [...agentFlags("fleet-agent"), ...args]), {
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, BENCH_FLEET_MQTT: JSON.stringify(mqtt) },
  });
  return new Promise((ok, fail) => {
    child.once("exit", (code) => fail(new Error(`fleet agent ${ppsId} exited with ${code}`)));
    createInterface({ input: child.stdout }).once("line", (line) => {
      const db = new Database(join(dataDir, "pps-edge.db"), { readonly: true, fileMustExist: true });
      const seq = db.prepare(
        "SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'outbox'), 0) AS s",
      );
      const cursor = db.prepare(
        "SELECT coalesce((SELECT CAST(value AS INTEGER) FROM settings WHERE key = 'mqtt.deliveredSeq'), 0) AS s",
      );
      ok({
        station: `${site}/${ppsId}`,
        pid: child.pid,
        port: Number(/^READY (\d+)/.exec(line)?.[1] ?? 0),
        send: (line) => child.stdin.write(`${line}\n`),
        lastSeq: () => seq.get().s,
        deliveredSeq: () => cursor.get().s,
        stop: () =>
          new Promise((done) => {
            if (db.open) db.close();
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.removeAllListeners("exit");
            child.once("exit", () => done());
            child.kill("SIGTERM");
          }),
      });
    });
  });
}

/** The reference consumer with `args` (main.ts's command line); its deliveries into `watch`. */
export function startCentral(args, watch = watchDeliveries(), { nice = 0 } = {}) {
  const argv = [...AGENT_NODE_FLAGS, "--import", "tsx", CONSUMER, ...args];
  const child = spawn(...niced(nice, process.execPath, argv), {
    stdio: ["ignore", "pipe", "pipe"],
  });
  watch.add(child.stdout);
  const events = [];
  createInterface({ input: child.stderr }).on("line", (line) => {
    try {
      events.push(JSON.parse(line));
    } catch {
      process.stderr.write(`consumer: ${line}\n`);
    }
  });
  return {
    pid: child.pid,
    watch,
    events,
    stop: () =>
      new Promise((ok) => {
        if (child.exitCode !== null || child.signalCode !== null) return ok();
        child.once("exit", () => ok());
        child.kill("SIGTERM");
      }),
  };
}
