// The simulated stations of the fleet benchmark (../sim-station.mjs) in a process of their own, so that
// they do not share an event loop with the benchmark's bookkeeping. Arguments: a JSON object
// `{ urls, site, first, count, failbackAfterMs }`; station i (from `first`) starts on node i mod the node
// count, its own, and returns to it as the agent does after `failbackAfterMs` (sim-station.mjs). Reads
// commands on stdin: `go <perSecond>` (each station), `halt`, `report` (prints one JSON line: per
// station its last seq, acknowledged seq and the times it connected); prints `READY` once every station
// is connected. SIGTERM stops them.
import { createInterface } from "node:readline";
import { simStation } from "../sim-station.mjs";

const { urls, site, first, count, failbackAfterMs } = JSON.parse(process.argv[2]);
const rotated = (i) => [...urls.slice(i % urls.length), ...urls.slice(0, i % urls.length)];
const sims = Array.from({ length: count }, (_, i) =>
  simStation({ urls: rotated(i), site, ppsId: String(first + i), failbackAfterMs }),
);
const TICK_MS = 50;
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
    for (; owed >= 1; owed--)
      for (const s of sims)
        s.notify("order_information", {
          externalServiceRequestId: `ORD-${++produced}`,
          committedAt: Date.now(),
        });
  }, TICK_MS);
}
createInterface({ input: process.stdin }).on("line", (line) => {
  const [cmd, arg] = line.trim().split(/\s+/);
  if (cmd === "go") go(Number(arg));
  if (cmd === "halt") clearInterval(producer);
  if (cmd === "report") {
    const stations = sims.map((s) => ({
      station: s.station,
      lastSeq: s.lastSeq(),
      acked: s.acked(),
      connects: s.connects,
    }));
    process.stdout.write(`${JSON.stringify(stations)}\n`);
  }
});
const ready = setInterval(() => {
  if (!sims.every((s) => s.connected())) return;
  clearInterval(ready);
  process.stdout.write("READY\n");
}, 100);
process.on("SIGTERM", () => {
  clearInterval(producer);
  Promise.all(sims.map((s) => s.stop())).then(() => process.exit(0));
});
