/**
 * The built agent as a maintainer meets it: `dist/app/main.js` run as an executable (its shebang, as the
 * package's bin), and each start failure a maintainer can cause answered with one line on standard
 * error naming the cause, the config key and the fix, exit code 1, and no stack.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VERSION } from "../../../src/version.js";
import { ADMIN, ADMIN_PASSWORD, CLIENT_ID, CLIENT_SECRET, tempDir } from "../../support/agent.js";
import { buildAgent } from "../../support/build.js";
import { deadline } from "../../support/deadline.js";

const PROFILES = fileURLToPath(new URL("../../../firmware-profiles/", import.meta.url));

let build: { dist: string; remove(): void };
beforeAll(async () => {
  build = await buildAgent();
}, deadline(240_000));
afterAll(() => build?.remove());

const running: ChildProcess[] = [];
afterAll(() => {
  for (const p of running) p.kill("SIGKILL");
});

const ENV = {
  PPS_EDGE_HTTP_PORT: "0",
  PPS_EDGE_MQTT_URL: "off",
  PPS_EDGE_CLIENT_ID: CLIENT_ID,
  PPS_EDGE_CLIENT_SECRET: CLIENT_SECRET,
  PPS_EDGE_ADMIN_USER: ADMIN,
  PPS_EDGE_ADMIN_PASSWORD: ADMIN_PASSWORD,
  PPS_EDGE_LOG_LEVEL: "info",
};

/** `dist/app/main.js ARGS` as its own process, started through its shebang (not `node dist/app/main.js`). */
function launch(args: string[], env: Record<string, string>) {
  const { PPS_EDGE_CONFIG: _ignored, ...inherited } = process.env;
  const proc = spawn(join(build.dist, "app", "main.js"), args, {
    // a data folder of its own, so a start that should have failed writes nothing into the checkout
    env: { ...inherited, ...ENV, PPS_EDGE_DATA_DIR: tempDir(), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.push(proc);
  const out = { stdout: "", stderr: "" };
  proc.stdout?.on("data", (d) => {
    out.stdout += String(d);
  });
  proc.stderr?.on("data", (d) => {
    out.stderr += String(d);
  });
  return { proc, out };
}

/** Runs to its end (killed after 30 s: a start that should have failed and did not). */
async function exec(args: string[], env: Record<string, string> = {}) {
  const { proc, out } = launch(args, env);
  const timer = setTimeout(() => proc.kill("SIGKILL"), 30_000);
  const code = await new Promise<number | null>((resolve) => proc.once("exit", (c) => resolve(c)));
  clearTimeout(timer);
  return { code, ...out };
}

/** Runs the agent until it says it is ready; its HTTP port. */
async function start(dataDir: string) {
  const { proc, out } = launch(["run"], { PPS_EDGE_DATA_DIR: dataDir });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready: ${out.stderr}${out.stdout}`)), 30_000);
    proc.stdout?.on("data", () => {
      const line = out.stdout.split("\n").find((l) => l.includes('"pps-edge ready"'));
      if (!line) return;
      clearTimeout(timer);
      resolve((JSON.parse(line) as { address: { port: number } }).address.port);
    });
    proc.once("exit", (c) => reject(new Error(`exited ${c}: ${out.stderr}`)));
  });
  return { proc, port };
}

/** One line on stderr naming the key, exit 1, and no stack anywhere. */
function expectOneLine(res: { code: number | null; stdout: string; stderr: string }, key: string): string {
  expect(res.code, res.stderr).toBe(1);
  const lines = res.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  const [line] = lines as [string];
  expect(line).toMatch(/^pps-edge: cannot start: .+\): .+/);
  expect(line).toContain(` (${key}): `);
  expect(`${res.stdout}${res.stderr}`).not.toMatch(/^\s+at /m);
  return line;
}

describe("the built command", () => {
  it(
    "is an executable with a shebang: --version prints the version",
    async () => {
      expect(statSync(join(build.dist, "app", "main.js")).mode & 0o111).toBe(0o111);
      expect(await exec(["--version"])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: "" });
    },
    deadline(60_000),
  );
});

describe("start failures: one line naming the cause, the key and the fix; exit 1", () => {
  it(
    "HTTP port in use (http.port), the stack in the log at debug level only",
    async () => {
      const blocker: Server = createServer();
      await new Promise<void>((ok) => blocker.listen(0, "127.0.0.1", () => ok()));
      const port = (blocker.address() as { port: number }).port;
      try {
        const env = { PPS_EDGE_DATA_DIR: tempDir(), PPS_EDGE_HTTP_PORT: String(port) };
        const line = expectOneLine(await exec(["run"], env), "http.port");
        expect(line).toBe(
          `pps-edge: cannot start: 127.0.0.1:${port} is already in use (EADDRINUSE) (http.port): stop the program listening there, or set http.port (PPS_EDGE_HTTP_PORT) to a free port`,
        );
        const debug = await exec(["run"], { ...env, PPS_EDGE_LOG_LEVEL: "debug" });
        expect(debug.stderr).toBe(`${line}\n`);
        const logged = debug.stdout.split("\n").find((l) => l.includes('"start failed"')) ?? "";
        const entry = JSON.parse(logged) as { level: number | string; err: { stack: string } };
        expect([20, "debug"]).toContain(entry.level);
        expect(entry.err.stack).toContain("    at ");
      } finally {
        blocker.close();
      }
    },
    deadline(60_000),
  );

  it(
    "config file unreadable (--config, PPS_EDGE_CONFIG) or holding a bad value (the key)",
    async () => {
      const dir = tempDir();
      const missing = join(dir, "missing.yaml");
      expect(expectOneLine(await exec(["--config", missing, "run"]), "--config")).toContain(
        `config file ${missing} cannot be read: ENOENT`,
      );
      expectOneLine(await exec(["run"], { PPS_EDGE_CONFIG: missing }), "PPS_EDGE_CONFIG");
      const file = join(dir, "pps-edge.yaml");
      writeFileSync(file, "tokenTtlSeconds: 5\n");
      expect(expectOneLine(await exec(["run", "--config", file]), "tokenTtlSeconds")).toContain(
        `: correct tokenTtlSeconds in ${file}`,
      );
      writeFileSync(file, "site: [unclosed\n");
      expect(expectOneLine(await exec(["run", "--config", file]), "--config")).toContain("not valid YAML");
    },
    deadline(60_000),
  );

  it(
    "bad station file (station.file): a device whose profile is unknown or has no driver",
    async () => {
      const dir = tempDir();
      const file = join(dir, "station.yaml");
      const station = (profile: string) =>
        `station:\n  seats: [front]\n  bins: [{ id: "1" }]\ndevices:\n  - { id: scan1, kind: scanner, profile: ${profile}, seat: front, transport: { serial: /dev/ttyUSB9 } }\n`;
      writeFileSync(file, station("no-such-scanner"));
      const env = { PPS_EDGE_DATA_DIR: join(dir, "data"), PPS_EDGE_STATION_FILE: file };
      expect(expectOneLine(await exec(["run"], env), "station.file")).toContain(
        `station file ${file}: devices.0.profile: unknown profile 'no-such-scanner'`,
      );
      const missing = expectOneLine(
        await exec(["run"], { ...env, PPS_EDGE_STATION_FILE: `${file}.gone` }),
        "station.file",
      );
      expect(missing).toContain("cannot be read");

      // a controller model whose protocol no driver speaks (a custom codec): refused at start, not later
      const profiles = join(dir, "profiles");
      mkdirSync(profiles);
      const model = JSON.parse(readFileSync(join(PROFILES, "atop-at500-ccb.json"), "utf8"));
      writeFileSync(
        join(profiles, "nda-ptl.json"),
        JSON.stringify({ ...model, profileId: "nda-ptl", ptl: { ...model.ptl, codec: "custom" } }),
      );
      writeFileSync(
        file,
        `station:\n  seats: [front]\n  bins: [{ id: "1" }]\ndevices:\n  - { id: ptl, kind: ptl-controller, profile: nda-ptl, transport: { tcp: { host: 127.0.0.1, port: 4660 } } }\n`,
      );
      const noDriver = await exec(["run"], { ...env, PPS_EDGE_DEVICES_PROFILES_DIR: profiles });
      expect(expectOneLine(noDriver, "station.file")).toContain(
        "devices.0.profile: codec custom has no adapter",
      );
    },
    deadline(60_000),
  );

  it(
    "data folder held by a running agent (dataDir); the user commands still work beside it",
    async () => {
      const dataDir = tempDir();
      const first = await start(dataDir);
      const second = await exec(["run"], { PPS_EDGE_DATA_DIR: dataDir });
      expect(expectOneLine(second, "dataDir")).toMatch(
        new RegExp(
          `the data folder ${dataDir} is in use by another pps-edge agent \\(pid ${first.proc.pid}, started `,
        ),
      );
      const list = await exec(["user", "list"], { PPS_EDGE_DATA_DIR: dataDir });
      expect(list).toMatchObject({ code: 0, stdout: `1\t${ADMIN}\tadmin\n` });
      expect((await fetch(`http://127.0.0.1:${first.port}/readyz`)).status).toBe(200);
      // the lock dies with the process: after a SIGKILL the next agent starts on the folder
      first.proc.kill("SIGKILL");
      await new Promise((resolve) => first.proc.once("exit", resolve));
      const next = await start(dataDir);
      next.proc.kill("SIGTERM");
      await new Promise((resolve) => next.proc.once("exit", resolve));
    },
    deadline(60_000),
  );
});
