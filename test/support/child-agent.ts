import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ADMIN, ADMIN_PASSWORD, CLIENT_ID, CLIENT_SECRET, passwordGrant, TOKEN_PATH } from "./agent.js";
import { deadline } from "./deadline.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export interface ChildAgent {
  base: string;
  proc: ChildProcess;
  token: string;
  call(method: string, path: string, body?: unknown): Promise<Response>;
  /** SIGKILL: no shutdown code runs, as on a power cut of the process. */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The real agent in its own process (`src/app/main.ts run`), on a data folder, HTTP on a free port; a start
 * that takes longer than `startTimeoutMs` (a deadline, test/support/deadline.ts) fails.
 */
export async function startChildAgent(
  dataDir: string,
  env: Record<string, string> = {},
  startTimeoutMs = 20_000,
  /** Node's own flags (a heap limit: `--max-old-space-size=128`). */
  nodeFlags: string[] = [],
): Promise<ChildAgent> {
  const proc = spawn(process.execPath, [...nodeFlags, "--import", "tsx", "src/app/main.ts", "run"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PPS_EDGE_DATA_DIR: dataDir,
      PPS_EDGE_HTTP_PORT: "0",
      PPS_EDGE_CLIENT_ID: CLIENT_ID,
      PPS_EDGE_CLIENT_SECRET: CLIENT_SECRET,
      PPS_EDGE_ADMIN_USER: ADMIN,
      PPS_EDGE_ADMIN_PASSWORD: ADMIN_PASSWORD,
      PPS_EDGE_MQTT_URL: "off",
      PPS_EDGE_LOG_LEVEL: "info",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    let buf = "";
    let err = "";
    const timer = setTimeout(
      () => reject(new Error(`agent did not start: ${err}${buf}`)),
      deadline(startTimeoutMs),
    );
    proc.stderr?.on("data", (d) => {
      err += String(d);
    });
    proc.stdout?.on("data", (d) => {
      buf += String(d);
      for (const line of buf.split("\n")) {
        if (!line.includes('"pps-edge ready"')) continue;
        clearTimeout(timer);
        resolve((JSON.parse(line) as { address: { port: number } }).address.port);
      }
    });
    proc.once("exit", (code) => reject(new Error(`agent exited with ${code}: ${err}${buf}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  const tokenRes = await fetch(`${base}${TOKEN_PATH}`, passwordGrant());
  const token = ((await tokenRes.json()) as { access_token: string }).access_token;
  return {
    base,
    proc,
    token,
    call: (method, path, body) =>
      fetch(`${base}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    async kill() {
      proc.kill("SIGKILL");
      await exited;
    },
    async stop() {
      proc.kill("SIGTERM");
      await exited;
    },
  };
}

export interface BuiltAgentChild {
  proc: ChildProcess;
  /** SIGKILL: no shutdown code runs, as on a power cut of the process. */
  kill(): Promise<void>;
  /** SIGTERM: the agent stops cleanly. */
  stop(): Promise<void>;
}

/**
 * The compiled agent (`buildAgent()`'s dist) in its own process, for tests that kill it mid-work: started
 * from `config` as `parseConfig` takes it, with `append` notifications committed right after the start
 * (agent-child.mjs). Resolves once it is started; a start that takes longer than 20 s fails.
 */
export async function startBuiltAgent(
  dist: string,
  config: Record<string, unknown>,
  append: number,
): Promise<BuiltAgentChild> {
  const proc = spawn(process.execPath, [join(import.meta.dirname, "agent-child.mjs"), dist], {
    env: { ...process.env, CHILD_CONFIG: JSON.stringify(config), CHILD_APPEND: String(append) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((ok) => proc.once("exit", () => ok()));
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error("the agent process did not start")), deadline(20_000));
    let out = "";
    proc.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("READY ")) {
        clearTimeout(timer);
        ok();
      }
    });
    proc.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`the agent process exited with ${code} before READY`));
    });
  });
  const signal = async (name: NodeJS.Signals) => {
    process.kill(proc.pid as number, name);
    await exited;
  };
  return { proc, kill: () => signal("SIGKILL"), stop: () => signal("SIGTERM") };
}

/** A test's clean-up: SIGKILLs the children still running, waits for them, and forgets them all. */
export async function killRunning(children: BuiltAgentChild[]): Promise<void> {
  for (const c of children.splice(0)) {
    if (c.proc.exitCode === null && c.proc.signalCode === null) await c.kill();
  }
}
