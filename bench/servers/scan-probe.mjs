// The operator's scanners of the cluster fleet bench (fleet-cluster.bench.mjs), in a process of their
// own: the bench's main process reads every delivery at central (thousands of JSON lines a second while
// a backlog drains), and a light frame read on its busy event loop would be timed late. Argument: JSON
// [{ scanner, ptl }], the device ends of each scanned agent's pseudo-terminals. On `start`: each
// operator signs in and presents the rack (scan-light.bench.mjs `atTheStation`), then a scan every 100 ms
// per station; prints `STARTED`. On `stop`: one JSON line per run of scans, `{ ms, at, lost }` with `at`
// in epoch milliseconds (the main process cuts the run into phases by its own clock), then exits.
import { createInterface } from "node:readline";
import { closePort, frameWaiter, openPort, sortexxUnit } from "../pty.mjs";
import { atTheStation, scanLoop } from "../scan-light.bench.mjs";

const seats = [];
for (const { scanner, ptl } of JSON.parse(process.argv[2] ?? "[]")) {
  const waiter = frameWaiter();
  const controller = await openPort(ptl);
  sortexxUnit(controller, waiter.onFrame);
  seats.push({ scanner: await openPort(scanner), controller, waiter });
}
let scanning = false;
let loops = [];
process.stdout.write("READY 0 {}\n");
createInterface({ input: process.stdin }).on("line", async (line) => {
  if (line === "start") {
    for (const s of seats) await atTheStation(s.scanner, s.waiter);
    scanning = true;
    loops = seats.map((s) => scanLoop(s.scanner, s.waiter, () => scanning));
    process.stdout.write("STARTED\n");
  }
  if (line === "stop") {
    scanning = false;
    const runs = await Promise.all(loops);
    const epoch = (t) => Math.round(performance.timeOrigin + t);
    // written out before the exit: a pipe's writes are asynchronous, and a long run is a line of 100s of KB
    for (const r of runs)
      await new Promise((ok) =>
        process.stdout.write(`${JSON.stringify({ ...r, at: r.at.map(epoch) })}\n`, ok),
      );
    for (const s of seats) {
      await closePort(s.scanner);
      await closePort(s.controller);
    }
    process.exit(0);
  }
});
