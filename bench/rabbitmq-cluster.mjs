// A RabbitMQ cluster of three nodes on loopback, from Debian's rabbitmq-server, for the fleet benchmark
// and the fleet system test (test/system/fleet/): each node can be stopped, SIGKILLed and started again
// by its process id. How central configures such a cluster is docs/mqtt.md ("Central on a clustered
// broker"); the settings used here are RabbitMQ's own, each named where it is set:
// - one epmd per cluster on its own port (ERL_EPMD_PORT), started here so that it is stopped here too,
//   and per node its own name, ports and directories (https://www.rabbitmq.com/configure.html,
//   "Environment Variables"), so several clusters and a system RabbitMQ can share the machine;
// - the nodes find each other by `classic_config` peer discovery, listing all three
//   (https://www.rabbitmq.com/cluster-formation.html); the first node is started alone, the others once
//   it runs, so they join it rather than form clusters of their own;
// - one Erlang cookie for all of them (https://www.rabbitmq.com/clustering.html, "Erlang Cookie");
// - the plugins `rabbitmq_mqtt` (https://www.rabbitmq.com/mqtt.html, MQTT 3.1.1 on 3.10) and
//   `rabbitmq_consistent_hash_exchange` (central's partitioning);
// - `schedulers` (1) scheduler threads and no busy waiting (`+S 1 +sbwt none`,
//   https://www.rabbitmq.com/runtime.html): three nodes share two cores with the agents and the
//   consumers (the fleet bench can give each node more: BENCH_FLEET_RABBITMQ_SCHEDULERS).
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, niced } from "./lib.mjs";

const SBIN = "/usr/lib/rabbitmq/bin";
export const RABBITMQ_SERVER = `${SBIN}/rabbitmq-server`;
export const hasRabbitmq = () => existsSync(RABBITMQ_SERVER);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Resolves once something accepts TCP connections on `port` of 127.0.0.1, or rejects after `ms`. */
async function listening(port, ms, isDead = () => false) {
  const t0 = Date.now();
  for (;;) {
    const ok = await new Promise((done) => {
      const s = connect(port, "127.0.0.1");
      s.once("connect", () => {
        s.destroy();
        done(true);
      });
      s.once("error", () => done(false));
    });
    if (ok) return;
    if (isDead()) throw new Error(`the process for port ${port} exited`);
    if (Date.now() - t0 > ms) throw new Error(`nothing listening on ${port} after ${ms} ms`);
    await sleep(200);
  }
}

/** As root, the nodes run as Debian's `rabbitmq` user (its files are made theirs); otherwise as we are. */
function runAs() {
  if (process.getuid?.() !== 0) return null;
  const r = spawnSync("id", ["-u", "rabbitmq"], { encoding: "utf8" });
  const g = spawnSync("id", ["-g", "rabbitmq"], { encoding: "utf8" });
  return r.status === 0 ? { uid: Number(r.stdout), gid: Number(g.stdout) } : null;
}

function nodeFiles(base, name, ports, names) {
  const dir = join(base, name);
  mkdirSync(join(dir, "mnesia"), { recursive: true });
  mkdirSync(join(dir, "log"), { recursive: true });
  const conf = join(dir, "rabbitmq.conf");
  writeFileSync(
    conf,
    [
      `listeners.tcp.default = 127.0.0.1:${ports.amqp}`,
      `mqtt.listeners.tcp.default = 127.0.0.1:${ports.mqtt}`,
      // guest may log in from loopback only, which is where everything here runs
      "mqtt.allow_anonymous = true",
      "cluster_formation.peer_discovery_backend = classic_config",
      ...names.map((n, i) => `cluster_formation.classic_config.nodes.${i + 1} = ${n}@localhost`),
      "log.console = false",
      "log.file.level = info",
      "",
    ].join("\n"),
  );
  const plugins = join(dir, "enabled_plugins");
  writeFileSync(plugins, "[rabbitmq_mqtt,rabbitmq_consistent_hash_exchange].\n");
  return { dir, conf, plugins };
}

/** The end of a node's log files: why it did not start. */
function logTail(dir) {
  const text = readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), "utf8"))
    .join("\n");
  return text.slice(-3000);
}

/**
 * Starts `nodes` (3) nodes in a temp folder and resolves once every one accepts AMQP and MQTT
 * connections and the cluster has them all. Each node: `name`, `mqttUrl`, `amqpUrl`, `pid()`,
 * `stop()` (SIGTERM, a clean stop), `kill()` (SIGKILL), `start()`, `running()`. `nice`: the nodes'
 * niceness (lib.mjs `niced`); `parent`: the folder their files go under (the system's temporary one);
 * `schedulers`: each node's scheduler threads.
 */
export async function startRabbitCluster(opts = {}) {
  // a free port is free when asked: another process (a broker of a test beside this one) may bind it
  // before the node does, and the node's VM then exits before it logs anything; fresh ports, once more
  for (let attempt = 1; ; attempt++) {
    try {
      return await startRabbitClusterOnce(opts);
    } catch (e) {
      if (attempt >= 3 || !/exited/.test(String(e?.message))) throw e;
    }
  }
}

async function startRabbitClusterOnce({
  nodes: count = 3,
  cookie = "ppsedgebenchcookie",
  nice = 0,
  parent = tmpdir(),
  schedulers = 1,
} = {}) {
  const base = mkdtempSync(join(parent, "pps-edge-rabbitmq-"));
  const user = runAs();
  const home = join(base, "home");
  mkdirSync(home);
  writeFileSync(join(home, ".erlang.cookie"), cookie, { mode: 0o400 });
  const taken = new Set();
  // a port the system just handed out may come back on the next call: each one must be distinct
  const port = async () => {
    for (;;) {
      const p = await freePort();
      if (!taken.has(p)) {
        taken.add(p);
        return p;
      }
    }
  };
  const epmdPort = await port();
  const names = Array.from({ length: count }, (_, i) => `rabbit${i + 1}`);
  const ports = [];
  for (const _ of names) ports.push({ amqp: await port(), mqtt: await port(), dist: await port() });
  const files = names.map((n, i) => nodeFiles(base, n, ports[i], names));
  if (user) {
    for (const p of spawnSync("find", [base], { encoding: "utf8" }).stdout.trim().split("\n"))
      chownSync(p, user.uid, user.gid);
    chmodSync(base, 0o755);
  }
  const env = (i) => ({
    PATH: process.env.PATH,
    HOME: home,
    LANG: "C.UTF-8",
    ERL_EPMD_PORT: String(epmdPort),
    RABBITMQ_NODENAME: `${names[i]}@localhost`,
    RABBITMQ_NODE_PORT: String(ports[i].amqp),
    RABBITMQ_DIST_PORT: String(ports[i].dist),
    RABBITMQ_MNESIA_BASE: join(files[i].dir, "mnesia"),
    RABBITMQ_LOG_BASE: join(files[i].dir, "log"),
    RABBITMQ_CONFIG_FILE: files[i].conf,
    RABBITMQ_ENABLED_PLUGINS_FILE: files[i].plugins,
    RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS: `+S ${schedulers}:${schedulers} +sbwt none +sbwtdcpu none +sbwtdio none`,
  });
  const spawnOpts = (i) => ({ env: env(i), detached: true, stdio: "ignore", ...(user ?? {}) });

  // epmd in the foreground, as our child: a daemon started by the first node would outlive the cluster
  const epmd = spawn("epmd", ["-port", String(epmdPort)], { ...spawnOpts(0), detached: false });
  await listening(epmdPort, 5000);

  const procs = names.map(() => null);
  /** Signals the node's process group: the start script, the Erlang VM and its helpers. */
  const signal = (i, sig) => {
    const c = procs[i];
    if (!c || c.exitCode !== null || c.signalCode !== null) return Promise.resolve();
    const gone = new Promise((ok) => c.once("exit", () => ok()));
    try {
      process.kill(-c.pid, sig);
    } catch {
      // already gone
    }
    return gone;
  };
  const node = (i) => ({
    name: `${names[i]}@localhost`,
    mqttUrl: `mqtt://127.0.0.1:${ports[i].mqtt}`,
    amqpUrl: `amqp://guest:guest@127.0.0.1:${ports[i].amqp}`,
    pid: () => procs[i]?.pid,
    running: () => procs[i] !== null && procs[i].exitCode === null && procs[i].signalCode === null,
    async start(timeoutMs = 90_000) {
      const c = spawn(...niced(nice, RABBITMQ_SERVER, []), spawnOpts(i));
      procs[i] = c;
      const dead = () => c.exitCode !== null || c.signalCode !== null;
      try {
        await listening(ports[i].amqp, timeoutMs, dead);
        await listening(ports[i].mqtt, timeoutMs, dead);
      } catch (e) {
        throw new Error(`${names[i]}: ${e.message}\n${logTail(join(files[i].dir, "log"))}`);
      }
    },
    async stop() {
      const c = procs[i];
      const timer = setTimeout(() => c && process.kill(-c.pid, "SIGKILL"), 20_000);
      await signal(i, "SIGTERM");
      clearTimeout(timer);
    },
    kill: () => signal(i, "SIGKILL"),
  });
  const members = names.map((_, i) => node(i));
  const cluster = {
    /** The temp folder: each node's config, data and `log/` (removed by `stop`). */
    dir: base,
    nodes: members,
    mqttUrls: members.map((m) => m.mqttUrl),
    amqpUrls: members.map((m) => m.amqpUrl),
    /** Which nodes the cluster has running, as node 1..n sees it (rabbitmqctl over the same epmd). */
    runningNodes(i = 0) {
      const r = spawnSync(
        `${SBIN}/rabbitmqctl`,
        ["-n", members[i].name, "eval", "rabbit_nodes:all_running()."],
        { env: env(i), encoding: "utf8", timeout: 20_000, ...(user ?? {}) },
      );
      return (r.stdout.match(/rabbit\d+@localhost/g) ?? []).sort();
    },
    async stop() {
      await Promise.all(members.map((m) => m.kill()));
      if (epmd.exitCode === null) {
        const gone = new Promise((ok) => epmd.once("exit", ok));
        epmd.kill("SIGKILL");
        await gone;
      }
      rmSync(base, { recursive: true, force: true });
    },
  };
  try {
    await members[0].start();
    await Promise.all(members.slice(1).map((m) => m.start()));
    for (let t0 = Date.now(); cluster.runningNodes().length < count; await sleep(500))
      if (Date.now() - t0 > 60_000) throw new Error(`the cluster has ${cluster.runningNodes()} only`);
  } catch (e) {
    await cluster.stop();
    throw e;
  }
  return cluster;
}
