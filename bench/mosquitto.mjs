// A local Mosquitto for the benchmarks, without persistence (a restart loses sessions and messages), with
// no limits on a subscriber's queue (a slow consumer must not make the broker drop messages), started
// and stopped by its process id so a benchmark can restart it on the same port.
import { spawn } from "node:child_process";
import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { freePort, niced } from "./lib.mjs";

export const MOSQUITTO = "/usr/sbin/mosquitto";
export const hasMosquitto = () => existsSync(MOSQUITTO);

/** `nice`: the broker's niceness (lib.mjs `niced`). */
export async function startMosquitto(dir, { nice = 0 } = {}) {
  const port = await freePort();
  chmodSync(dir, 0o777);
  const conf = join(dir, "mosquitto.conf");
  writeFileSync(
    conf,
    `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\nmax_queued_messages 0\nmax_inflight_messages 0\nlog_dest stderr\nlog_type error\nlog_type information\n`,
  );
  let child;
  async function start() {
    const c = spawn(...niced(nice, MOSQUITTO, ["-c", conf]), { stdio: ["ignore", "ignore", "pipe"] });
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
  function signal(sig) {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null || c.signalCode !== null) return Promise.resolve();
    return new Promise((ok) => {
      c.once("exit", () => ok());
      c.kill(sig);
    });
  }
  await start();
  return {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    pid: () => child?.pid,
    start,
    stop: () => signal("SIGTERM"),
    kill: () => signal("SIGKILL"),
  };
}

/**
 * One Mosquitto in the shape of bench/nats-cluster.mjs's cluster, for the fleet bench's `--broker
 * mosquitto`: Mosquitto has no cluster, so its one node is the one killed, and nobody can fail over.
 */
export async function mosquittoAsCluster(dir, { nice = 0 } = {}) {
  const m = await startMosquitto(dir, { nice });
  const node = { name: "mosquitto", mqttUrl: m.url, pid: m.pid, start: m.start, stop: m.stop, kill: m.kill };
  return { nodes: [node], mqttUrls: [m.url], stop: m.kill };
}
