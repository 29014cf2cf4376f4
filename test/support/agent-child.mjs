// The agent as its own process, for tests that kill it (child-agent.ts `startBuiltAgent`):
// `node agent-child.mjs <dist>`, with the config as JSON in CHILD_CONFIG and CHILD_APPEND notifications
// committed right after the start. Prints `READY <json>` once started; SIGTERM stops it cleanly.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import pino from "pino";

const [dist] = process.argv.slice(2);
const load = (file) => import(pathToFileURL(join(dist, file)).href);
const { createAgent } = await load("app/agent.js");
const { parseConfig } = await load("config/config.load.js");

const agent = createAgent(parseConfig(JSON.parse(process.env.CHILD_CONFIG ?? "{}")), {
  log: pino({ level: "silent" }),
});
await agent.start();
const n = Number(process.env.CHILD_APPEND ?? 0);
if (n > 0) {
  agent.services.unitOfWork.run((t) => {
    for (let i = 1; i <= n; i++) t.notify("order_information", { externalServiceRequestId: `ORD-${i}` });
  });
}
process.stdout.write(`READY ${JSON.stringify({ appended: n, pid: process.pid })}\n`);
process.on("SIGTERM", () => agent.stop().then(() => process.exit(0)));
