import { type ChildProcess, execFile, spawn } from "node:child_process";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { passwordGrant, TOKEN_PATH } from "../../../support/agent.js";
import { deadline } from "../../../support/deadline.js";

/**
 * The installed /usr/bin/pps-edge of a scratch root, with its absolute paths moved into that root (and
 * Node the one running the tests): the launcher's own text otherwise, so its defaults and flags are tested.
 */
export function scratchLauncher(root: string, to: string): string {
  const text = readFileSync(join(root, "usr/bin/pps-edge"), "utf8")
    .replaceAll("/opt/pps-edge", join(root, "opt/pps-edge"))
    .replaceAll("/etc/pps-edge", join(root, "etc/pps-edge"))
    .replaceAll("/var/lib/pps-edge", join(root, "var/lib/pps-edge"))
    .replace("exec /usr/bin/node ", `exec ${process.execPath} `);
  writeFileSync(to, text);
  chmodSync(to, 0o755);
  return to;
}

/** The environment without the caller's PPS_EDGE_ variables: the launcher and the config file decide. */
export function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("PPS_EDGE_")));
}

export async function command(launcher: string, args: string[]) {
  return new Promise<{ code: number; out: string; err: string }>((resolve) => {
    execFile(launcher, args, { env: cleanEnv(), timeout: deadline(120_000) }, (e, out, err) =>
      resolve({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, out, err }),
    );
  });
}

/** Calls of the agent at `base` as its admin, the token taken at the first call. */
export function adminCaller(base: string) {
  let token: string | undefined;
  return async (method: string, path: string, body?: unknown) => {
    if (!token) {
      const r = await fetch(`${base}${TOKEN_PATH}`, passwordGrant());
      token = ((await r.json()) as { access_token: string }).access_token;
    }
    const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    return fetch(`${base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  };
}

export interface RunningAgent {
  child: ChildProcess;
  base: string;
  stop(): Promise<void>;
  call(method: string, path: string, body?: unknown): Promise<Response>;
  /** Resolves once /readyz's outbox check counts at least `n` undelivered notifications. */
  untilUndelivered(n: number): Promise<void>;
}

async function undelivered(base: string): Promise<number> {
  const r = (await (await fetch(`${base}/readyz`)).json()) as { checks: { outbox?: { detail?: string } } };
  return Number(/^(\d+) undelivered/.exec(r.checks.outbox?.detail ?? "")?.[1] ?? 0);
}

/** Starts `pps-edge run` through the launcher and resolves when /readyz answers 200 (milliseconds taken). */
export async function startInstalled(launcher: string, port: number): Promise<RunningAgent> {
  const child = spawn(launcher, ["run"], { env: cleanEnv(), stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<void>((ok) => child.once("exit", () => ok()));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const ready = await fetch(`${base}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) break;
    if (child.exitCode !== null || i > 1200) {
      child.kill("SIGKILL");
      throw new Error(`the installed agent did not become ready (exit ${child.exitCode}): ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const call = adminCaller(base);
  const stop = async () => {
    child.kill("SIGTERM");
    await exited;
  };
  const untilUndelivered = async (n: number) => {
    for (let i = 0; (await undelivered(base)) < n; i++) {
      if (i > 300) throw new Error(`fewer than ${n} notifications became pending`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  return { child, base, stop, call, untilUndelivered };
}

/** The notification ids still waiting in the outbox of a stopped agent's database. */
export function pendingNotifications(dbFile: string): string[] {
  const db = new Database(dbFile, { readonly: true });
  try {
    const rows = db
      .prepare("SELECT notification_id FROM outbox WHERE delivered_at IS NULL ORDER BY seq")
      .all();
    return (rows as Array<{ notification_id: string }>).map((r) => r.notification_id);
  } finally {
    db.close();
  }
}
