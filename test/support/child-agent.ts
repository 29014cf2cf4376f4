import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { ADMIN, ADMIN_PASSWORD, CLIENT_ID, CLIENT_SECRET, passwordGrant, TOKEN_PATH } from "./agent.js";

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
 * that takes longer than `startTimeoutMs` fails.
 */
export async function startChildAgent(
  dataDir: string,
  env: Record<string, string> = {},
  startTimeoutMs = 20_000,
): Promise<ChildAgent> {
  const proc = spawn(process.execPath, ["--import", "tsx", "src/app/main.ts", "run"], {
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
    const timer = setTimeout(() => reject(new Error(`agent did not start: ${err}${buf}`)), startTimeoutMs);
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
