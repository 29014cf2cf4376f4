// The agent under attack in the adversary soak (adversary.bench.mjs): its real start path with a station
// file (serial scanner and SorTexx controller on pseudo-terminals, as scan-light's), the embedded broker
// on `brokerPort` on loopback (the adversary and the legitimate clients come from different loopback addresses), every limit at its default.
import pino from "pino";
import { agentModules, BENCH_USER } from "../lib.mjs";

const { createAgent, parseConfig } = await agentModules();

const [dataDir, stationFile, brokerPort] = process.argv.slice(2);
const config = parseConfig({
  dataDir,
  site: "bench",
  ppsId: "1",
  ...BENCH_USER,
  http: { host: "127.0.0.1", port: 0 },
  log: { level: "silent" },
  // the bench reads the refusal counts from /metrics
  metrics: { token: "bench-scrape-token-123" },
  mqtt: { url: "embedded", embeddedHost: "127.0.0.1", embeddedPort: Number(brokerPort) },
  station: { file: stationFile },
});
const agent = createAgent(config, { log: pino({ level: "silent" }) });
await agent.start();
process.stdout.write(`READY ${agent.address.port} {}\n`);
process.on("SIGTERM", () => agent.stop().then(() => process.exit(0)));
