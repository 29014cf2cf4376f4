// The agent with a station file (serial scanner and SorTexx controller on pseudo-terminals), as a
// benchmark target: its real start path, port chosen by the OS. On SIGTERM it writes its event-loop
// delay and garbage-collection pauses to `statsFile`, to tell where scan latency under load comes from.
import { writeFileSync } from "node:fs";
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import pino from "pino";
import { agentModules, BENCH_USER } from "../lib.mjs";

const { createAgent, parseConfig } = await agentModules();

const [dataDir, stationFile, statsFile] = process.argv.slice(2);
const config = parseConfig({
  dataDir,
  ...BENCH_USER,
  http: { host: "127.0.0.1", port: 0 },
  log: { level: "silent" },
  mqtt: { url: "off" },
  station: { file: stationFile },
});
const agent = createAgent(config, { log: pino({ level: "silent" }) });
await agent.start();
const loop = monitorEventLoopDelay({ resolution: 1 });
const gc = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gc.push(e.duration);
}).observe({ entryTypes: ["gc"] });
/** Starts a new measuring window (the bench calls this between phases with SIGUSR2). */
const reset = () => {
  loop.reset();
  gc.length = 0;
};
loop.enable();
const windows = [];
const ms = (ns) => Math.round(ns / 1e4) / 100;
const close = () =>
  windows.push({
    loopDelayMs: { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) },
    gcPauses: gc.length,
    gcMaxMs: Math.round(Math.max(0, ...gc) * 10) / 10,
  });
process.on("SIGUSR2", () => {
  close();
  reset();
});
process.stdout.write(`READY ${agent.address.port} {}\n`);
process.on("SIGTERM", () => {
  close();
  if (statsFile) writeFileSync(statsFile, JSON.stringify(windows));
  agent.stop().then(() => process.exit(0));
});
