// The agent as `npm start` runs it, for the soak: the embedded broker on `brokerPort`, the embedded
// simulated station (no station file), its own logger at info (JSON lines on stdout, which the bench
// drains). On SIGUSR2 it writes its V8 heap figures (process.memoryUsage(), MB) to `heapFile`, so the
// bench reads them without depending on /metrics and its credential. BENCH_SOAK_RETAIN_SECONDS sets
// mqtt.retainTerminalSeconds, so a soak shorter than an hour can show the retained state levelling off.
import { writeFileSync } from "node:fs";
import { agentModules, BENCH_USER, NO_USER_RATES } from "../lib.mjs";

const { createAgent, parseConfig } = await agentModules();

const [dataDir, brokerPort, heapFile] = process.argv.slice(2);
const config = parseConfig({
  dataDir,
  site: "bench",
  ppsId: "1",
  ...BENCH_USER,
  // one user's searches and reports as fast as they go: their cost, not the per-user rates
  http: { host: "127.0.0.1", port: 0, ...NO_USER_RATES },
  log: { level: "info", format: "json" },
  mqtt: {
    url: "embedded",
    embeddedHost: "127.0.0.1",
    embeddedPort: Number(brokerPort),
    // BENCH_SOAK_RETAIN_SECONDS: how long finished requests stay retained (the agent's default: 3600)
    ...(process.env.BENCH_SOAK_RETAIN_SECONDS
      ? { retainTerminalSeconds: Number(process.env.BENCH_SOAK_RETAIN_SECONDS) }
      : {}),
  },
});
const agent = createAgent(config);
await agent.start();
process.on("SIGUSR2", () => {
  const mb = (b) => Math.round((b / 1048576) * 10) / 10;
  const m = process.memoryUsage();
  const heap = { heapUsed: mb(m.heapUsed), heapTotal: mb(m.heapTotal), external: mb(m.external) };
  writeFileSync(heapFile, JSON.stringify({ ...heap, arrayBuffers: mb(m.arrayBuffers) }));
});
process.stdout.write(`READY ${agent.address.port} {}\n`);
process.on("SIGTERM", () => agent.stop().then(() => process.exit(0)));
