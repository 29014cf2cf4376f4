/**
 * `npx tsx examples/central-consumer/src/main.ts --url mqtt://broker:1883 --site dc1 --state central.db
 *  [--user U --password P] [--out notifications.jsonl] [--instance I --instances N]`
 * or, on RabbitMQ, `--amqp amqp://u:p@node1:5672,amqp://u:p@node2:5672 --partitions 4 --replica a`
 * (amqp-consumer.ts) instead of `--url`.
 *
 * Consumes the notifications of every station of a site (or of this instance's share of them) and
 * appends them as JSON lines to --out (default stdout). Log events go to stderr as JSON lines; SIGINT
 * or SIGTERM stops it cleanly. See this folder's README.
 */
import { parseArgs } from "node:util";
import { startAmqpConsumer } from "./amqp-consumer.js";
import { type Log, startConsumer } from "./consumer.js";
import { jsonlSink } from "./jsonl-sink.js";

const { values: a } = parseArgs({
  options: {
    url: { type: "string" },
    site: { type: "string" },
    user: { type: "string" },
    password: { type: "string", default: process.env.CENTRAL_PASSWORD },
    state: { type: "string" },
    out: { type: "string" },
    instance: { type: "string", default: "0" },
    instances: { type: "string", default: "1" },
    "client-id": { type: "string" },
    "stats-every": { type: "string", default: "0" },
    amqp: { type: "string" },
    partitions: { type: "string", default: "4" },
    replica: { type: "string" },
    "protocol-version": { type: "string", default: "5" },
  },
});
if (!(a.url || (a.amqp && a.replica)) || !a.site || !a.state) {
  process.stderr.write("usage: main.ts --url URL --site SITE --state FILE.db [--user U --password P]\n");
  process.stderr.write(
    "       [--out FILE.jsonl] [--instance I --instances N] [--client-id ID] [--stats-every S] [--protocol-version 4]\n",
  );
  process.stderr.write(
    "   or: main.ts --amqp URL,URL,... --replica NAME [--partitions N] --site SITE --state FILE.db\n",
  );
  process.exit(2);
}

const log: Log = (event, fields) =>
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), event, ...fields })}\n`);
const out = jsonlSink(a.out ?? null);
const consumer = a.amqp
  ? await startAmqpConsumer({
      urls: a.amqp.split(","),
      site: a.site,
      partitions: Number(a.partitions),
      replica: a.replica as string,
      statePath: a.state,
      sink: out.sink,
      log,
    })
  : startConsumer({
      url: a.url as string,
      site: a.site,
      statePath: a.state,
      sink: out.sink,
      instance: Number(a.instance),
      instances: Number(a.instances),
      protocolVersion: a["protocol-version"] === "4" ? 4 : 5,
      log,
      ...(a.user === undefined ? {} : { username: a.user, password: a.password ?? "" }),
      ...(a["client-id"] === undefined ? {} : { clientId: a["client-id"] }),
    });
log("started", { clientId: "clientId" in consumer ? consumer.clientId : consumer.replica });

const every = Number(a["stats-every"]) * 1000;
const stats = every > 0 ? setInterval(() => log("stats", { ...consumer.stats() }), every) : undefined;

async function stop(): Promise<void> {
  clearInterval(stats);
  await consumer.stop();
  out.close();
  log("stopped", { ...consumer.stats() });
  process.exit(0);
}
process.once("SIGINT", () => void stop());
process.once("SIGTERM", () => void stop());
