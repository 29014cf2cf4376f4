// One station of the fleet benchmark: the agent (production Node flags and reconnect settings) syncing
// to `url` as `<site>/<ppsId>`, producing notifications while told to. Reads commands on stdin:
// `go <perSecond>` starts producing (one transaction per notification, as a use case commits them,
// `notification_data.committedAt` the commit time for the latency at central), `halt` stops. Prints
// `READY <http port> {}` once started; SIGTERM stops it cleanly. With a fifth argument, a station file
// (scan-light.bench.mjs's: serial scanner and SorTexx controller on pseudo-terminals), the bench also
// measures scan → light on it. BENCH_FLEET_MQTT (JSON) adds `mqtt.*` settings,
// e.g. a cluster's `failoverUrls`, `protocolVersion: 4` and `requestQos: 0` (docs/mqtt.md#rabbitmq).
import { createInterface } from "node:readline";
import pino from "pino";
import { agentModules, BENCH_USER } from "../lib.mjs";

const { createAgent, parseConfig } = await agentModules();
const [dataDir, url, site, ppsId, stationFile] = process.argv.slice(2);
const config = parseConfig({
  dataDir,
  site,
  ppsId,
  ...BENCH_USER,
  http: { host: "127.0.0.1", port: 0 },
  log: { level: "silent" },
  mqtt: { url, protocolVersion: 5, ...JSON.parse(process.env.BENCH_FLEET_MQTT ?? "{}") },
  ...(stationFile ? { station: { file: stationFile } } : {}),
});
const agent = createAgent(config, { log: pino({ level: "silent" }) });
await agent.start();

const TICK_MS = 20;
let producer;
let produced = 0;
function go(perSecond) {
  clearInterval(producer);
  let owed = 0;
  let last = performance.now();
  producer = setInterval(() => {
    // by the time passed, not the ticks: a busy machine fires the timer late
    const now = performance.now();
    owed += (perSecond * (now - last)) / 1000;
    last = now;
    for (; owed >= 1; owed--) {
      produced++;
      agent.services.unitOfWork.run((t) =>
        t.notify("order_information", {
          externalServiceRequestId: `ORD-${produced}`,
          committedAt: Date.now(),
        }),
      );
    }
  }, TICK_MS);
}
createInterface({ input: process.stdin }).on("line", (line) => {
  const [cmd, arg] = line.trim().split(/\s+/);
  if (cmd === "go") go(Number(arg));
  if (cmd === "halt") clearInterval(producer);
});
process.stdout.write(`READY ${agent.address?.port ?? 0} {}\n`);
process.on("SIGTERM", () => {
  clearInterval(producer);
  agent.stop().then(() => process.exit(0));
});
