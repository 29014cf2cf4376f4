/**
 * A log nobody reads (docs/operations.md#when-nobody-reads-the-log): the agent's standard output is a
 * pipe that is not read while debug logging of its traffic fills it. The agent keeps answering, counts
 * the lines it drops in `log_lines_dropped_total`, says how many once the pipe is read again, and
 * SIGTERM still stops it within a deadline while nobody reads.
 */
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { describe, expect, it } from "vitest";
import { ADMIN, ADMIN_PASSWORD, CLIENT_ID, CLIENT_SECRET, tempDir } from "../../support/agent.js";
import { deadline, until } from "../../support/deadline.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const SCRAPE_TOKEN = "unread-scrape-token-123";

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function droppedLines(base: string): Promise<number> {
  const res = await fetch(`${base}/metrics`, {
    headers: { Authorization: `Bearer ${SCRAPE_TOKEN}` },
    signal: AbortSignal.timeout(deadline(5000)),
  });
  const family = parsePrometheusTextFormat(await res.text()).find(
    (f) => f.name === "log_lines_dropped_total",
  );
  return Number(family?.metrics[0]?.value ?? 0);
}

describe("an agent whose log output is not read", () => {
  it(
    "keeps serving, counts the dropped lines, and stops on SIGTERM",
    async () => {
      const port = await freePort();
      const proc = spawn(process.execPath, ["--import", "tsx", "src/app/main.ts", "run"], {
        cwd: ROOT,
        env: {
          ...process.env,
          PPS_EDGE_DATA_DIR: tempDir(),
          PPS_EDGE_HTTP_PORT: String(port),
          PPS_EDGE_CLIENT_ID: CLIENT_ID,
          PPS_EDGE_CLIENT_SECRET: CLIENT_SECRET,
          PPS_EDGE_ADMIN_USER: ADMIN,
          PPS_EDGE_ADMIN_PASSWORD: ADMIN_PASSWORD,
          PPS_EDGE_METRICS_TOKEN: SCRAPE_TOKEN,
          PPS_EDGE_MQTT_URL: "off",
          PPS_EDGE_LOG_LEVEL: "debug",
          PPS_EDGE_LOG_FORMAT: "json",
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      // standard output is not read (only once, for a moment, below)
      proc.stdout.pause();
      let stderr = "";
      proc.stderr.on("data", (d) => {
        stderr += String(d);
      });
      const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
      const base = `http://127.0.0.1:${port}`;
      try {
        const healthy = async () => {
          try {
            const res = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(deadline(5000)) });
            await res.arrayBuffer();
            return res.status === 200;
          } catch {
            return false;
          }
        };
        await until("the agent answers /healthz", healthy, 30_000, { everyMs: 100, seen: () => stderr });
        // every request is a debug line: fill the pipe and the log's buffer behind it
        const fillUntilDropped = (more: number) =>
          until(
            `more than ${more} log lines dropped`,
            async () => {
              // 32 at once: within the connections allowed to one address (docs/limits.md#http-the-station-api)
              const answered = await Promise.all(Array.from({ length: 32 }, healthy));
              expect(answered.every(Boolean), "/healthz answered while the log is blocked").toBe(true);
              return (await droppedLines(base)) > more;
            },
            20_000,
            { everyMs: 0, seen: () => stderr },
          );
        await fillUntilDropped(0);
        // read for a while: once the buffer drains, one line tells how many were lost
        let stdout = "";
        const reader = (d: Buffer) => {
          stdout += String(d);
        };
        proc.stdout.on("data", reader);
        proc.stdout.resume();
        await until("the dropped lines reported", () => stdout.includes("log lines dropped"), 10_000, {
          seen: () => stdout.slice(-300),
        });
        const report = stdout.split("\n").find((l) => l.includes("log lines dropped")) ?? "{}";
        expect(JSON.parse(report)).toMatchObject({ level: "warn", droppedLines: expect.any(Number) });
        expect(JSON.parse(report).droppedLines).toBeGreaterThan(0);
        // and not read again, until more are dropped; then SIGTERM
        proc.stdout.off("data", reader);
        proc.stdout.pause();
        await fillUntilDropped(await droppedLines(base));
        expect(await healthy()).toBe(true);
        proc.kill("SIGTERM");
        const code = await Promise.race([
          exited,
          new Promise<"running">((r) => setTimeout(() => r("running"), deadline(10_000))),
        ]);
        expect(code, `the agent stopped after SIGTERM; stderr: ${stderr}`).toBe(0);
      } finally {
        if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
        await exited;
        proc.stdout.resume();
      }
    },
    deadline(60_000),
  );
});
