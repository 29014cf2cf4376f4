// A NATS cluster of three servers on loopback, from Debian's nats-server, for the fleet benchmark: each
// with JetStream (which NATS needs to serve MQTT) and an MQTT listener, routes to the other two, and a
// monitoring port whose /healthz says when its JetStream is current
// (https://docs.nats.io/running-a-nats-service/configuration/clustering,
// https://docs.nats.io/running-a-nats-service/configuration/mqtt,
// https://docs.nats.io/running-a-nats-service/nats_admin/monitoring#health). `mappings` (subject →
// destination) is central's partitioning, e.g. `{{partition(4,1,2)}}` (docs/mqtt.md#nats). Each server
// can be stopped, SIGKILLed and started again by its process id.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, niced } from "./lib.mjs";

export const NATS_SERVER = "/usr/sbin/nats-server";
export const hasNats = () => existsSync(NATS_SERVER);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function config(dir, i, ports, mappings) {
  const routes = ports.map((p) => `nats-route://127.0.0.1:${p.route}`).join(", ");
  const mapped = Object.entries(mappings)
    .map(([from, to]) => `  "${from}": "${to}"`)
    .join("\n");
  return [
    `server_name: n${i + 1}`,
    `listen: 127.0.0.1:${ports[i].client}`,
    `http: 127.0.0.1:${ports[i].monitor}`,
    `jetstream { store_dir: "${join(dir, `n${i + 1}`)}", max_memory_store: 256MB, max_file_store: 2GB }`,
    `cluster { name: ppsedge, listen: 127.0.0.1:${ports[i].route}, routes: [${routes}] }`,
    `mqtt { listen: 127.0.0.1:${ports[i].mqtt} }`,
    ...(mapped ? [`mappings = {\n${mapped}\n}`] : []),
    "",
  ].join("\n");
}

/** Until the server's /healthz answers 200: listening, and its JetStream current with the cluster. */
async function healthy(port, ms, isDead) {
  const t0 = Date.now();
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    if (isDead()) throw new Error(`nats-server on monitor port ${port} exited`);
    if (Date.now() - t0 > ms)
      throw new Error(`nats-server on monitor port ${port} not healthy after ${ms} ms`);
    await sleep(250);
  }
}

/** `nice`: the servers' niceness (lib.mjs `niced`); `parent`: the folder their files go under. */
export async function startNatsCluster({
  nodes: count = 3,
  mappings = {},
  nice = 0,
  parent = tmpdir(),
} = {}) {
  const dir = mkdtempSync(join(parent, "pps-edge-nats-"));
  const ports = [];
  const taken = new Set();
  const port = async () => {
    for (;;) {
      const p = await freePort();
      if (!taken.has(p)) {
        taken.add(p);
        return p;
      }
    }
  };
  for (let i = 0; i < count; i++)
    ports.push({ client: await port(), route: await port(), mqtt: await port(), monitor: await port() });
  const confs = ports.map((_, i) => {
    mkdirSync(join(dir, `n${i + 1}`));
    const file = join(dir, `n${i + 1}.conf`);
    writeFileSync(file, config(dir, i, ports, mappings));
    return file;
  });
  const procs = ports.map(() => null);
  const node = (i) => ({
    name: `n${i + 1}`,
    mqttUrl: `mqtt://127.0.0.1:${ports[i].mqtt}`,
    natsUrl: `nats://127.0.0.1:${ports[i].client}`,
    pid: () => procs[i]?.pid,
    running: () => procs[i] !== null && procs[i].exitCode === null && procs[i].signalCode === null,
    async start(timeoutMs = 60_000) {
      const c = spawn(...niced(nice, NATS_SERVER, ["-c", confs[i]]), {
        stdio: ["ignore", "ignore", "ignore"],
      });
      procs[i] = c;
      await healthy(ports[i].monitor, timeoutMs, () => c.exitCode !== null || c.signalCode !== null);
    },
    stop: () => signal(i, "SIGTERM"),
    kill: () => signal(i, "SIGKILL"),
  });
  function signal(i, sig) {
    const c = procs[i];
    if (!c || c.exitCode !== null || c.signalCode !== null) return Promise.resolve();
    const gone = new Promise((ok) => c.once("exit", () => ok()));
    c.kill(sig);
    return gone;
  }
  const members = ports.map((_, i) => node(i));
  const cluster = {
    dir,
    nodes: members,
    mqttUrls: members.map((m) => m.mqttUrl),
    /**
     * The node leading a JetStream stream (NATS keeps MQTT QoS 1 messages in `$MQTT_msgs`), as a
     * running node's monitoring endpoint `/jsz` reports it; null if none knows.
     */
    async streamLeader(stream) {
      for (const [i, m] of members.entries()) {
        if (!m.running()) continue;
        const jsz = await fetch(`http://127.0.0.1:${ports[i].monitor}/jsz?accounts=true&streams=true`)
          .then((r) => r.json())
          .catch(() => null);
        const found = (jsz?.account_details ?? [])
          .flatMap((a) => a.stream_detail ?? [])
          .find((s) => s.name === stream);
        const leader = members.find((n) => n.name === found?.cluster?.leader);
        if (leader) return leader;
      }
      return null;
    },
    async stop() {
      await Promise.all(members.map((m) => m.kill()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    // all at once: the routes connect whichever comes first, and JetStream needs a majority to be current
    await Promise.all(members.map((m) => m.start()));
  } catch (e) {
    await cluster.stop();
    throw e;
  }
  return cluster;
}
