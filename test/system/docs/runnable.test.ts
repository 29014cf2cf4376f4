/**
 * The blocks marked `<!-- runnable: with the agent -->` run as written, in order, in one bash
 * session, in a scratch folder where the built agent runs on its embedded defaults (as after `npm start`
 * in a checkout: `dist/` and `npx pps-edge` there). Two things differ from a reader's machine, both
 * outside the blocks: the agent listens on a free port instead of 8080 (the blocks' `127.0.0.1:8080` is
 * rewritten to it) and runs without the embedded broker (parallel tests would share port 1883).
 * Each `sim` line's comment says what it prints; the test holds the output to it.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdirSync, symlinkSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../../support/agent.js";
import { buildAgent } from "../../support/build.js";
import { deadline } from "../../support/deadline.js";
import { shellBlocks } from "../../support/readme.js";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as { port: number };
  await new Promise((ok) => server.close(ok));
  return port;
}

async function untilHealthy(url: string, agent: ChildProcess): Promise<void> {
  const end = Date.now() + deadline(30_000);
  while (Date.now() < end && agent.exitCode === null) {
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the agent did not become healthy at ${url}`);
}

/** `sim ARGS   # what it prints` → the command between markers, so its output can be found. */
function markSimLines(script: string, expectations: string[]): string {
  return script.replace(/^sim (.+?)\s+# (.+)$/gm, (_all, args: string, comment: string) => {
    expectations.push(comment);
    return `printf '@@sim@@\\n'; sim ${args}; printf '@@end@@\\n'`;
  });
}

/** The comment's claims: "front: item → bin_lit; bin 1: green 2" → each part, asides in () dropped. */
function claims(comment: string): string[] {
  return comment
    .replace(/\s*\([^)]*\)/g, "")
    .split(/;\s|,\s/)
    .map((c) => c.trim())
    .filter(Boolean);
}

let scratch: string;
let agent: ChildProcess;
let env: NodeJS.ProcessEnv;
let port: number;
let build: { dist: string; remove(): void };

beforeAll(async () => {
  build = await buildAgent();
  scratch = tempDir("pps-edge-readme-");
  symlinkSync(build.dist, join(scratch, "dist"));
  mkdirSync(join(scratch, "node_modules", ".bin"), { recursive: true });
  symlinkSync(join(build.dist, "app", "main.js"), join(scratch, "node_modules", ".bin", "pps-edge"));
  port = await freePort();
  const { PPS_EDGE_CONFIG: _none, ...inherited } = process.env;
  env = {
    ...inherited,
    PPS_EDGE_HTTP_PORT: String(port),
    PPS_EDGE_MQTT_URL: "off",
    PPS_EDGE_LOG_LEVEL: "warn",
  };
  agent = spawn(process.execPath, ["dist/app/main.js", "run"], { cwd: scratch, env, stdio: "ignore" });
  await untilHealthy(`http://127.0.0.1:${port}/healthz`, agent);
}, deadline(240_000));

afterAll(() => {
  agent?.kill("SIGTERM");
  build?.remove();
});

describe("README and docs/: the blocks marked runnable", () => {
  it(
    "run as written against the agent, and each sim line prints what its comment says",
    async () => {
      const blocks = shellBlocks().filter((b) => b.runnable);
      expect(blocks.length).toBeGreaterThanOrEqual(3);
      const expectations: string[] = [];
      const script = markSimLines(
        ["set -euo pipefail", ...blocks.map((b) => `# ${b.file} line ${b.line}\n${b.text}`)]
          .join("\n")
          .replaceAll("127.0.0.1:8080", `127.0.0.1:${port}`),
        expectations,
      );
      const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          "bash",
          ["-c", script],
          { cwd: scratch, env, timeout: deadline(180_000) },
          (err, stdout, stderr) =>
            resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        );
      });
      expect([run.code, run.stderr.split("\n").filter((l) => !l.includes("npm warn"))]).toEqual([0, [""]]);
      const printed = [...run.stdout.matchAll(/@@sim@@\n([\s\S]*?)@@end@@/g)].map((m) => m[1] as string);
      expect(printed.length).toBe(expectations.length);
      expect(expectations.length).toBeGreaterThanOrEqual(10);
      expectations.forEach((comment, i) => {
        for (const claim of claims(comment))
          expect([comment, printed[i]]).toEqual([comment, expect.stringContaining(claim)]);
      });
    },
    deadline(240_000),
  );
});
