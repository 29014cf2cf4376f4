// A local Mosquitto for the benchmarks, without persistence (a restart loses sessions and messages), with
// no limits on a subscriber's queue (a slow consumer must not make the broker drop messages), started
// and stopped by its process id so a benchmark can restart it on the same port.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort } from "./lib.mjs";

export const MOSQUITTO = "/usr/sbin/mosquitto";
export const hasMosquitto = () => existsSync(MOSQUITTO);

export async function startMosquitto(dir) {
  const port = await freePort();
  chmodSync(dir, 0o777);
  const conf = join(dir, "mosquitto.conf");
  writeFileSync(
    conf,
    `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\nmax_queued_messages 0\nmax_inflight_messages 0\nlog_dest stderr\nlog_type error\nlog_type information\n`,
  );
  let child;
  async function start() {
    const c = spawn(MOSQUITTO, ["-c", conf], { stdio: ["ignore", "ignore", "pipe"] });
    child = c;
    await new Promise((ok, fail) => {
      let text = "";
      c.stderr.on("data", (d) => {
        text += d;
        if (/mosquitto version \S+ running/.test(text)) ok();
      });
      c.once("exit", (code) => fail(new Error(`mosquitto exited with ${code}: ${text}`)));
    });
    c.stderr.resume();
  }
  function stop() {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return Promise.resolve();
    return new Promise((ok) => {
      c.once("exit", () => ok());
      process.kill(c.pid, "SIGTERM");
    });
  }
  await start();
  return { url: `mqtt://127.0.0.1:${port}`, port, pid: () => child?.pid, start, stop };
}
