// The baseline: a bare mqtt.js client publishing the same envelopes (read from the same outbox, a page
// at a time) to the same topic at QoS 1 with the same window, and nothing else: no delivery marks, no
// retained state, no requests. Prints `DONE <json>` once every PUBACK has arrived.
import Database from "better-sqlite3";
import mqtt from "mqtt";

const [dbFile, url, window, topic] = process.argv.slice(2);
const max = Number(window);
const db = new Database(dbFile, { readonly: true });
const page = db.prepare("SELECT seq, envelope FROM outbox WHERE seq > ? ORDER BY seq LIMIT ?");
const client = await mqtt.connectAsync(url, {
  clientId: "bench-bare",
  protocolVersion: 5,
  clean: true,
  reconnectPeriod: 0,
  keepalive: 15,
});
const t0 = performance.now();
let cursor = 0;
let inFlight = 0;
let buffer = [];
await new Promise((ok, fail) => {
  const pump = () => {
    while (inFlight < max) {
      if (buffer.length === 0) {
        buffer = page.all(cursor, max);
        if (buffer.length === 0) {
          if (inFlight === 0) ok();
          return;
        }
        cursor = buffer[buffer.length - 1].seq;
      }
      const row = buffer.shift();
      inFlight++;
      client.publish(topic, row.envelope, { qos: 1 }, (err) => {
        if (err) return fail(err);
        inFlight--;
        pump();
      });
    }
  };
  pump();
});
const seconds = (performance.now() - t0) / 1000;
const rssMb = Math.round(process.resourceUsage().maxRSS / 1024);
await client.endAsync();
db.close();
process.stdout.write(`DONE ${JSON.stringify({ seconds, rssMb })}\n`);
