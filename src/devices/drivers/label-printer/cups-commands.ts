/**
 * The CUPS commands a label printer runs (docs/hardware.md#cups-verdicts): each with the server as
 * configured (`CUPS_SERVER`) and in English (`LC_ALL=C`), since their texts are parsed; `look` reads a
 * queue and one of its jobs with `lpstat` for cups-verdict.ts.
 */
import { execFile } from "node:child_process";
import { type CupsLook, parseJob, parseQueue } from "./cups-verdict.js";

export function cupsCommands(server: string | undefined) {
  const env = { ...process.env, LC_ALL: "C", ...(server ? { CUPS_SERVER: server } : {}) };

  function run(cmd: string, args: string[], input?: Uint8Array): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = execFile(cmd, args, { env, timeout: 10_000 }, (err, stdout, stderr) =>
        err ? reject(new Error((stderr || err.message).trim())) : resolve(stdout),
      );
      child.stdin?.on("error", () => {});
      child.stdin?.end(input ? Buffer.from(input) : undefined);
    });
  }

  /** `lpstat -r`: whether the scheduler answers (it exits 0 either way and says which). */
  async function serverRunning(): Promise<boolean> {
    const out = await run("lpstat", ["-r"]).catch(() => "");
    return /scheduler is running/.test(out);
  }

  async function look(q: string, id: string): Promise<CupsLook> {
    try {
      const p = await run("lpstat", ["-l", "-p", q]);
      const a = await run("lpstat", ["-a", q]);
      const pending = parseJob(await run("lpstat", ["-l", "-W", "not-completed", "-o", q]), id);
      const done = pending
        ? undefined
        : parseJob(await run("lpstat", ["-l", "-W", "completed", "-o", q]), id);
      const job = pending
        ? { where: "pending" as const, ...pending }
        : done
          ? { where: "completed" as const, ...done }
          : { where: "unknown" as const, status: "", reasons: [] };
      return { server: "running", queue: parseQueue(p, a), job };
    } catch (err) {
      if (!(await serverRunning())) return { server: "down" };
      if (/invalid destination|does not exist/i.test(String(err)))
        return { server: "running", queue: undefined, job: { where: "unknown", status: "", reasons: [] } };
      return { server: "unclear", error: err instanceof Error ? err.message : String(err) };
    }
  }

  return { run, serverRunning, look };
}
