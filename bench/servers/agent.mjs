// The agent as a benchmark target: its real start path, on the given data folder, port chosen by the OS.
import pino from "pino";
import { agentModules, BENCH_USER, NO_USER_RATES } from "../lib.mjs";

const { createAgent, parseConfig } = await agentModules();

const [dataDir] = process.argv.slice(2);
const config = parseConfig({
  dataDir,
  ...BENCH_USER,
  // one user's searches and reports as fast as they go: their cost, not the per-user rates
  http: { host: "127.0.0.1", port: 0, ...NO_USER_RATES },
  log: { level: "silent" },
  mqtt: { url: "off" },
});
const agent = createAgent(config, { log: pino({ level: "silent" }) });
const t0 = performance.now();
await agent.start();
const startMs = performance.now() - t0;
process.stdout.write(`READY ${agent.address.port} ${JSON.stringify({ startMs })}\n`);
process.on("SIGTERM", () => agent.stop().then(() => process.exit(0)));
