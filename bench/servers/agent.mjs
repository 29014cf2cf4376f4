// The agent as a benchmark target: its real start path, on the given data folder, port chosen by the OS.
import pino from "pino";
import { agentModules, BENCH_USER } from "../lib.mjs";

const { createAgent, parseConfig } = await agentModules();

const [dataDir] = process.argv.slice(2);
const config = parseConfig({
  dataDir,
  ...BENCH_USER,
  // the bench drives one user's searches and reports as fast as they go: it measures their cost, not
  // the per-user rate of the costly routes (docs/limits.md)
  http: {
    host: "127.0.0.1",
    port: 0,
    costlyRequestsPerSecond: 100_000,
    costlyBurst: 100_000,
    storedBytesPerSecond: 2 ** 40,
    storedBurstBytes: 2 ** 40,
  },
  log: { level: "silent" },
  mqtt: { url: "off" },
});
const agent = createAgent(config, { log: pino({ level: "silent" }) });
const t0 = performance.now();
await agent.start();
const startMs = performance.now() - t0;
process.stdout.write(`READY ${agent.address.port} ${JSON.stringify({ startMs })}\n`);
process.on("SIGTERM", () => agent.stop().then(() => process.exit(0)));
