// The benchmark's side of servers/sim-fleet.mjs: starts the simulated stations' process, resolves once
// every station is connected, and reads their `report` (per station: last seq, acknowledged seq, the
// times it connected and to which node).
import { spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { BENCH_DIR, niced } from "./lib.mjs";

/** `nice`: the process's niceness (lib.mjs `niced`); the rest goes to servers/sim-fleet.mjs. */
export function startSimFleet({ nice = 0, ...opts }) {
  const script = join(BENCH_DIR, "servers", "sim-fleet.mjs");
  const child = spawn(...niced(nice, process.execPath, [script, JSON.stringify(opts)]), {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout });
  const waiting = [];
  let ready;
  const isReady = new Promise((ok, fail) => {
    ready = ok;
    child.once("exit", (code, signal) => {
      const e = new Error(`simulated stations exited with ${code ?? signal}`);
      fail(e);
      for (const w of waiting.splice(0)) w.fail(e);
    });
  });
  lines.on("line", (line) => {
    if (line === "READY") ready();
    else waiting.shift()?.ok(JSON.parse(line));
  });
  const send = (line) => child.stdin.write(`${line}\n`);
  const fleet = {
    pid: child.pid,
    send,
    report: () =>
      new Promise((ok, fail) => {
        waiting.push({ ok, fail });
        send("report");
      }),
    stop: () =>
      new Promise((ok) => {
        if (child.exitCode !== null || child.signalCode !== null) return ok();
        child.removeAllListeners("exit");
        child.once("exit", () => ok());
        child.kill("SIGTERM");
      }),
  };
  return isReady.then(() => fleet);
}
