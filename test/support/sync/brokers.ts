import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Aedes, type AedesOptions } from "aedes";
import { deadline } from "../deadline.js";
import { type Received, recorder, type Subscriber } from "./subscriber.js";

export const MOSQUITTO = "/usr/sbin/mosquitto";
export const hasMosquitto = existsSync(MOSQUITTO);

/** A real broker the test can stop and start again on the same port. */
export interface TestBroker {
  name: "aedes" | "mosquitto";
  url: string;
  port: number;
  /** Protocol the agent should speak to it. */
  protocolVersion: 4 | 5;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
  /**
   * A consumer inside the broker process (aedes only): unaffected when the port closes, like a central
   * system whose own link stays up while the station's breaks.
   */
  inside?(filter: string): Promise<Subscriber>;
}

export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const a = s.address();
      const port = typeof a === "object" && a ? a.port : 0;
      s.close(() => ok(port));
    });
  });
}

/**
 * An aedes broker (what the embedded broker runs) outside the agent, so the test can stop it. With
 * `keepSessions`, a stop only closes the port and every connection, like a network outage, and durable
 * sessions survive it; otherwise a stop loses everything, like a broker without persistence.
 */
export async function startAedes(
  opts: { keepSessions?: boolean } & Pick<
    AedesOptions,
    "authorizePublish" | "authorizeSubscribe" | "authorizeForward"
  > = {},
): Promise<TestBroker> {
  const port = await freePort();
  let broker: Aedes | undefined;
  let server: Server | undefined;
  const sockets = new Set<Socket>();

  async function start(): Promise<void> {
    if (!broker) {
      const { keepSessions: _, ...hooks } = opts;
      broker = await Aedes.createBroker(hooks);
    }
    const b = broker;
    const s = createServer((socket) => {
      sockets.add(socket);
      socket.once("close", () => sockets.delete(socket));
      b.handle(socket);
    });
    server = s;
    await new Promise<void>((ok, fail) => {
      s.once("error", fail);
      s.listen(port, "127.0.0.1", () => ok());
    });
  }

  async function stop(): Promise<void> {
    const s = server;
    server = undefined;
    if (s) {
      const closed = new Promise<void>((ok) => s.close(() => ok()));
      for (const socket of sockets) socket.destroy();
      await closed;
    }
    if (!opts.keepSessions && broker) {
      const b = broker;
      broker = undefined;
      await new Promise<void>((ok) => b.close(() => ok()));
    }
  }

  await start();
  return {
    name: "aedes",
    url: `mqtt://127.0.0.1:${port}`,
    port,
    protocolVersion: 4,
    stop,
    start,
    async close() {
      opts.keepSessions = false;
      await stop();
    },
    async inside(filter) {
      const b = broker as Aedes;
      const messages: Received[] = [];
      const waiters = new Set<() => void>();
      const deliver = (
        packet: { topic: string; payload: Buffer | string; retain: boolean },
        cb: () => void,
      ) => {
        messages.push({ topic: packet.topic, payload: packet.payload.toString(), retain: packet.retain });
        for (const w of [...waiters]) w();
        cb();
      };
      await new Promise<void>((ok) => b.subscribe(filter, deliver, ok));
      return {
        ...recorder(messages, waiters),
        publish: (topic, payload) =>
          new Promise<void>((ok, fail) =>
            b.publish({ cmd: "publish", topic, payload, qos: 1, retain: false, dup: false }, (e) =>
              e ? fail(e) : ok(),
            ),
          ),
        close: () => new Promise<void>((ok) => b.unsubscribe(filter, deliver, ok)),
      };
    },
  };
}

/**
 * Mosquitto on a free local port with its config in a temp folder, started and stopped by its process
 * id. `persistence` keeps durable sessions across a restart (saved on a clean stop); `acl` is the
 * anonymous user's ACL lines; `extra` adds config lines (e.g. `max_packet_size`).
 */
export async function startMosquitto(
  opts: { persistence?: boolean; extra?: string[]; acl?: string[] } = {},
): Promise<TestBroker> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "pps-edge-mosquitto-"));
  // Run as root, mosquitto drops to its own user: it must be able to write its persistence file here.
  chmodSync(dir, 0o777);
  const conf = join(dir, "mosquitto.conf");
  const acl = join(dir, "acl");
  if (opts.acl) writeFileSync(acl, `${opts.acl.join("\n")}\n`, { mode: 0o644 });
  writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      "allow_anonymous true",
      `persistence ${opts.persistence ? "true" : "false"}`,
      `persistence_location ${dir}/`,
      "max_queued_messages 0",
      "log_dest stderr",
      "log_type error",
      "log_type warning",
      "log_type notice",
      "log_type information",
      ...(opts.acl ? [`acl_file ${acl}`] : []),
      ...(opts.extra ?? []),
      "",
    ].join("\n"),
  );
  let child: ChildProcess | undefined;

  async function start(): Promise<void> {
    const c = spawn(MOSQUITTO, ["-c", conf], { stdio: ["ignore", "ignore", "pipe"] });
    child = c;
    await new Promise<void>((ok, fail) => {
      let text = "";
      const timer = setTimeout(() => {
        process.kill(c.pid as number, "SIGKILL");
        fail(new Error(`mosquitto did not start: ${text}`));
      }, deadline(10_000));
      c.stderr?.on("data", (d: Buffer) => {
        text += d.toString();
        // Printed once the listener is open.
        if (/mosquitto version \S+ running/.test(text)) {
          clearTimeout(timer);
          ok();
        }
      });
      c.once("exit", (code) => {
        clearTimeout(timer);
        fail(new Error(`mosquitto exited with ${code}: ${text}`));
      });
    });
    c.stderr?.resume();
  }

  async function stop(): Promise<void> {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    await new Promise<void>((ok) => {
      // SIGTERM saves the persistence file; a broker that does not exit in 5 s is killed.
      const timer = setTimeout(() => process.kill(c.pid as number, "SIGKILL"), 5000);
      c.once("exit", () => {
        clearTimeout(timer);
        ok();
      });
      process.kill(c.pid as number, "SIGTERM");
    });
  }

  await start();
  return {
    name: "mosquitto",
    url: `mqtt://127.0.0.1:${port}`,
    port,
    protocolVersion: 5,
    stop,
    start,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const BROKERS: Array<{ name: "aedes" | "mosquitto"; start: () => Promise<TestBroker> }> = [
  { name: "aedes", start: () => startAedes({ keepSessions: true }) },
  ...(hasMosquitto
    ? [{ name: "mosquitto" as const, start: () => startMosquitto({ persistence: true }) }]
    : []),
];
