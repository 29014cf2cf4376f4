// Benchmark target: the agent draining the outbox already in <dataDir> to <brokerUrl>, as its own
// process so that its peak RSS is its own. Prints `DONE <json>` once every notification is delivered
// (PUBACK received and recorded), then stops cleanly.
import pino from "pino";
import { agentModules, BENCH_USER } from "../lib.mjs";

const { createAgent, parseConfig } = await agentModules();

const [dataDir, url, window] = process.argv.slice(2);
const config = parseConfig({
  dataDir,
  site: "bench",
  ppsId: "1",
  ...BENCH_USER,
  http: { host: "127.0.0.1", port: 0 },
  log: { level: "silent" },
  mqtt: { url, inflightWindow: Number(window), outboxWarnDepth: 10_000_000 },
});
const agent = createAgent(config, { log: pino({ level: "silent" }) });
await agent.start();
const t0 = performance.now();
// Delivered: acknowledged by the broker and recorded durably (the delivery cursor; see src/db/outbox.repo.ts).
// (builds from before the outbox repository owned it read it from the sync's repository)
const undelivered = agent.services.repos.outbox.oldestUndelivered
  ? () => agent.services.repos.outbox.oldestUndelivered()
  : () => agent.sync.repo.oldestUndelivered();
await new Promise((ok) => {
  const timer = setInterval(() => {
    if (undelivered() === undefined) {
      clearInterval(timer);
      ok();
    }
  }, 5);
});
const seconds = (performance.now() - t0) / 1000;
const rssMb = Math.round(process.resourceUsage().maxRSS / 1024);
await agent.stop();
process.stdout.write(`DONE ${JSON.stringify({ seconds, rssMb })}\n`);
