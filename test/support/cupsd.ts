/**
 * A CUPS scheduler of the test's own (docs/hardware.md#label-printers): `cupsd -f` with its own
 * configuration, spool, cache, state and logs under a temp folder, listening on a free loopback port, and
 * a label printer on a loopback socket (AppSocket, what `socket://` queues send to) that keeps the bytes
 * of every job it receives, so a test counts the labels printed at the device.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { until } from "./deadline.js";
import { freePort } from "./sync/brokers.js";
import { tempDir } from "./temp-dirs.js";

export interface TestCupsd {
  /** `127.0.0.1:<port>`: the agent's `printing.cupsServer`, the commands' `-h`. */
  server: string;
  dir: string;
  /** The scheduler's process id while it runs. */
  pid(): number | undefined;
  /** Runs a CUPS command against this scheduler (`CUPS_SERVER`); rejects with its error output. */
  run(cmd: string, args: string[], input?: Uint8Array): Promise<string>;
  /** A queue without a driver (`-m raw`): the device gets the PDF's bytes as they were sent. */
  addQueue(name: string, deviceUri: string): Promise<void>;
  /** Stops the scheduler by its pid (SIGTERM, or SIGKILL: killed as a crash would) and waits for its exit. */
  stop(signal?: "SIGTERM" | "SIGKILL"): Promise<void>;
  /** Starts it again over the same folders (its queues and unfinished jobs are kept). */
  start(): Promise<void>;
  /** The scheduler's error log (what it says about each job). */
  errorLog(): string;
  close(): Promise<void>;
}

function exec(cmd: string, args: string[], env: NodeJS.ProcessEnv, input?: Uint8Array): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(cmd, args, { env, timeout: 20_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${cmd} ${args.join(" ")}: ${stderr || err.message}`.trim())) : resolve(stdout),
    );
    child.stdin?.end(input ? Buffer.from(input) : undefined);
  });
}

/** The processes under `pid` (its children and theirs), read from /proc. */
/** The processes whose command line names a path under `dir`. */
function namingDir(dir: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(`${dir}/`)) out.push(Number(entry));
    } catch {
      // it ended while listed
    }
  }
  return out;
}

function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // stat: "pid (comm) state ppid ...": comm may hold spaces, so read after its closing bracket
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // it ended while listed
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of parents.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

export async function startCupsd(): Promise<TestCupsd> {
  const dir = tempDir("pps-edge-cupsd-");
  // the scheduler runs its backends as user lp, which must reach the spool under this folder
  chmodSync(dir, 0o755);
  for (const sub of ["root", "spool", "cache", "state", "temp", "log"]) mkdirSync(join(dir, sub));
  // the filters run as lp and write their temporary files there
  chmodSync(join(dir, "temp"), 0o1777);
  const port = await freePort();
  const server = `127.0.0.1:${port}`;
  // cupsd.conf(5): loopback only, no browsing or web pages, anyone may administer (a test's own server)
  writeFileSync(
    join(dir, "cupsd.conf"),
    [
      `Listen ${server}`,
      "LogLevel info",
      // queues and jobs are written at once, so a scheduler killed mid-job keeps them
      "DirtyCleanInterval 0",
      "WebInterface No",
      "Browsing No",
      "DefaultAuthType None",
      "<Location />",
      "  Order allow,deny",
      "  Allow all",
      "</Location>",
      "<Policy default>",
      "  <Limit All>",
      "    Order deny,allow",
      "  </Limit>",
      "</Policy>",
      "",
    ].join("\n"),
  );
  // cups-files.conf(5): every file under the temp folder; FileDevice lets queues write to file: URIs
  writeFileSync(
    join(dir, "cups-files.conf"),
    [
      `ServerRoot ${join(dir, "root")}`,
      `RequestRoot ${join(dir, "spool")}`,
      `CacheDir ${join(dir, "cache")}`,
      `StateDir ${join(dir, "state")}`,
      `TempDir ${join(dir, "temp")}`,
      `ErrorLog ${join(dir, "log", "error_log")}`,
      `AccessLog ${join(dir, "log", "access_log")}`,
      `PageLog ${join(dir, "log", "page_log")}`,
      `Printcap ${join(dir, "printcap")}`,
      "FileDevice Yes",
      "User lp",
      "Group lp",
      "SystemGroup root",
      "",
    ].join("\n"),
  );
  const env = { ...process.env, CUPS_SERVER: server, LC_ALL: "C" };
  const run = (cmd: string, args: string[], input?: Uint8Array) => exec(cmd, args, env, input);
  let child: ChildProcess | undefined;

  async function start(): Promise<void> {
    const proc = spawn("cupsd", ["-f", "-c", join(dir, "cupsd.conf"), "-s", join(dir, "cups-files.conf")], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let said = "";
    proc.stderr?.on("data", (d: Buffer) => {
      said += d.toString();
    });
    child = proc;
    await until(
      `cupsd on ${server}`,
      async () => {
        if (proc.exitCode !== null) throw new Error(`cupsd exited (${proc.exitCode}): ${said}`);
        return (await run("lpstat", ["-r"]).catch(() => "")).includes("scheduler is running");
      },
      10_000,
      { everyMs: 100 },
    );
  }

  async function stop(signal: "SIGTERM" | "SIGKILL" = "SIGTERM"): Promise<void> {
    const proc = child;
    child = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    // a cupsd that stops leaves its filters and backends running (a socket backend retries for ever,
    // killed or told to stop alike); the service manager kills them with it (systemd's control group),
    // and so does the test
    const children = descendants(proc.pid as number);
    const exited = new Promise((r) => proc.once("exit", r));
    process.kill(proc.pid as number, signal);
    await exited;
    for (const pid of children) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // it ended meanwhile
      }
    }
  }

  await start();
  return {
    server,
    dir,
    pid: () => child?.pid,
    run,
    async addQueue(name, deviceUri) {
      await run("lpadmin", ["-p", name, "-E", "-v", deviceUri, "-m", "raw"]);
    },
    stop,
    start,
    errorLog: () => readFileSync(join(dir, "log", "error_log"), "utf8"),
    async close() {
      await stop("SIGTERM");
      // a backend started by an earlier run of this scheduler (before a kill and restart) is no longer
      // its child: each names its job's file under this scheduler's own folder
      for (const pid of namingDir(dir)) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // it ended meanwhile
        }
      }
    },
  };
}

/** A label printer on a loopback socket: each connection is one job; its bytes are kept once it ends. */
export interface SocketPrinter {
  port: number;
  /** The queue's device (`socket://127.0.0.1:<port>`). */
  uri: string;
  /** The jobs received in full, in order. */
  jobs(): Buffer[];
  /** The whole PDFs received (from `%PDF-` to `%%EOF`): the labels printed. */
  labels(): number;
  /** Stops listening: the port refuses connections, as an unplugged or switched-off printer's would. */
  unplug(): Promise<void>;
  /** Listens again on the same port. */
  plug(): Promise<void>;
  close(): Promise<void>;
}

export async function startSocketPrinter(opts: { plugged?: boolean } = {}): Promise<SocketPrinter> {
  const port = await freePort();
  const received: Buffer[] = [];
  const sockets = new Set<Socket>();
  let server: Server | undefined;

  function plug(): Promise<void> {
    if (server) return Promise.resolve();
    const s = createServer((socket) => {
      sockets.add(socket);
      const chunks: Buffer[] = [];
      socket.on("data", (d: Buffer) => chunks.push(d));
      socket.on("end", () => {
        received.push(Buffer.concat(chunks));
        socket.end();
      });
      socket.on("error", () => {});
      socket.on("close", () => sockets.delete(socket));
    });
    server = s;
    return new Promise((resolve, reject) => {
      s.once("error", reject);
      s.listen(port, "127.0.0.1", () => resolve());
    });
  }

  function unplug(): Promise<void> {
    const s = server;
    server = undefined;
    if (!s) return Promise.resolve();
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => s.close(() => resolve()));
  }

  if (opts.plugged !== false) await plug();
  return {
    port,
    uri: `socket://127.0.0.1:${port}`,
    jobs: () => [...received],
    labels: () =>
      received.filter(
        (b) =>
          b.subarray(0, 5).toString("latin1") === "%PDF-" &&
          b.subarray(-32).toString("latin1").includes("%%EOF"),
      ).length,
    unplug,
    plug,
    close: unplug,
  };
}
