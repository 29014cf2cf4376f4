/**
 * The logger (src/log.ts): string level names, the journal's `<N>` priority prefix under systemd
 * (detected from JOURNAL_STREAM as systemd.exec(5) says), pino-pretty's lines on a terminal, secrets
 * censored, and `log.level` / `log.format` in the config and the environment.
 */
import { spawn } from "node:child_process";
import { closeSync, fstatSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../src/config/config.load.js";
import { isAppError } from "../../../src/domain/errors.js";
import { createLogger, isJournalStream, type LogSettings } from "../../../src/log.js";
import { tempDir } from "../../support/agent.js";
import { duplicateKeys, LogLines } from "../../support/log-lines.js";

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
const settings = (format: LogSettings["log"]["format"] = "json", level = "trace"): LogSettings => ({
  site: "dc1",
  ppsId: "7",
  log: { level, format },
});
const ESC = String.fromCharCode(27);
const LEVELS = ["trace", "debug", "info", "warn", "error", "fatal"] as const;

function logEveryLevel(format: LogSettings["log"]["format"], out: { journal: boolean; tty: boolean }) {
  const lines = new LogLines();
  const log = createLogger(settings(format), { destination: lines, ...out }).child({ part: "test" });
  for (const level of LEVELS) log[level]({ n: 1 }, `a ${level} line`);
  return lines.lines;
}

describe("log lines", () => {
  it("are JSON with string level names, the station once, and no key twice", () => {
    const lines = logEveryLevel("json", { journal: false, tty: false });
    expect(lines.map((l) => JSON.parse(l).level)).toEqual([...LEVELS]);
    for (const line of lines) {
      expect(line.startsWith('{"level":"')).toBe(true);
      expect(JSON.parse(line)).toMatchObject({ station: "dc1/7", part: "test", n: 1 });
      expect(duplicateKeys(line)).toEqual([]);
    }
  });

  it("carry the journal's priority prefix under systemd: fatal 2, error 3, warn 4, info 6, debug and trace 7", () => {
    const lines = logEveryLevel("json", { journal: true, tty: false });
    expect(lines.map((l) => l.slice(0, 3))).toEqual(["<7>", "<7>", "<6>", "<4>", "<3>", "<2>"]);
    expect(lines.map((l) => JSON.parse(l.slice(3)).level)).toEqual([...LEVELS]);
  });

  it("are pino-pretty's readable lines on a terminal, coloured; `json` forces JSON there", () => {
    const pretty = logEveryLevel("auto", { journal: false, tty: true });
    expect(pretty).toHaveLength(LEVELS.length);
    expect(pretty[2]).toContain(`${ESC}[`); // ANSI colour
    const plain = pretty[2]?.replace(new RegExp(`${ESC}\\[\\d+m`, "g"), "");
    expect(plain).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: a info line \{"part":"test","n":1\}$/);
    expect(logEveryLevel("json", { journal: false, tty: true }).map((l) => JSON.parse(l).level)).toEqual([
      ...LEVELS,
    ]);
    // `pretty` away from a terminal: readable, no colour codes
    const forced = logEveryLevel("pretty", { journal: false, tty: false });
    expect(forced[3]).toMatch(/WARN: a warn line/);
    expect(forced.join("")).not.toContain(`${ESC}[`);
  });

  it("censor secrets at the top of a log object and one or two levels down", () => {
    const lines = new LogLines();
    const log = createLogger(settings(), { destination: lines, journal: false, tty: false });
    log.info(
      {
        password: "s1",
        adminPassword: "s2",
        config: { clientSecret: "s3", mqtt: { password: "s4" } },
        headers: { authorization: "Bearer s5", cookie: "pps_screen_front=s6" },
        body: { refresh_token: "s7", access_token: "s8" },
        screen: { key: "s9" },
        generated: ["adminPassword"],
      },
      "secrets",
    );
    expect(lines.text()).not.toMatch(/"s\d"|Bearer s5|=s6/);
    expect(JSON.parse(lines.text())).toMatchObject({
      password: "[redacted]",
      config: { clientSecret: "[redacted]", mqtt: { password: "[redacted]" } },
      headers: { authorization: "[redacted]" },
      generated: ["adminPassword"],
    });
  });

  it("the duplicate-key check finds a repeated key at any depth", () => {
    expect(duplicateKeys('{"a":1,"b":{"a":2,"c":"x\\",\\"a"},"a":3}')).toEqual(["a"]);
    expect(duplicateKeys('{"a":[{"b":1},{"b":2}],"c":{"d":1,"d":2}}')).toEqual(["d"]);
  });
});

describe("the journal is detected as systemd.exec(5) says", () => {
  it("only while stdout is the stream JOURNAL_STREAM names (device:inode)", () => {
    const file = join(tempDir(), "journal");
    const fd = openSync(file, "w");
    try {
      const st = fstatSync(fd, { bigint: true });
      expect(isJournalStream(`${st.dev}:${st.ino}`, fd)).toBe(true);
      expect(isJournalStream(`${st.dev}:${st.ino + 1n}`, fd)).toBe(false);
      expect(isJournalStream(undefined, fd)).toBe(false);
    } finally {
      closeSync(fd);
    }
  });

  it("a process whose stdout is that stream prefixes its lines; one redirected elsewhere does not", async () => {
    const file = join(tempDir(), "journal");
    const fd = openSync(file, "w");
    const st = fstatSync(fd, { bigint: true });
    const script = `const { createLogger } = await import("./src/log.ts");
      const log = createLogger({ site: "dc1", ppsId: "1", log: { level: "info", format: "auto" } });
      log.info("ready"); log.warn("careful"); log.error("failed");`;
    const run = (out: number | "pipe") =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
          cwd: ROOT,
          env: { ...process.env, JOURNAL_STREAM: `${st.dev}:${st.ino}` },
          stdio: ["ignore", out, "pipe"],
        });
        let text = "";
        child.stdout?.on("data", (d) => {
          text += String(d);
        });
        child.stderr?.on("data", (d) => {
          text += String(d);
        });
        child.once("error", reject);
        child.once("exit", (code) =>
          code === 0 ? resolve(text) : reject(new Error(`exit ${code}: ${text}`)),
        );
      });
    try {
      await run(fd);
    } finally {
      closeSync(fd);
    }
    const journal = readFileSync(file, "utf8").trim().split("\n");
    expect(journal.map((l) => l.slice(0, 3))).toEqual(["<6>", "<4>", "<3>"]);
    expect(JSON.parse(journal[0]?.slice(3) ?? "")).toMatchObject({ level: "info", msg: "ready" });
    // the variable inherited, stdout a pipe: plain JSON lines
    const piped = (await run("pipe")).trim().split("\n");
    expect(piped.map((l) => JSON.parse(l).level)).toEqual(["info", "warn", "error"]);
  });
});

describe("log settings in the config", () => {
  function failure(raw: unknown, env: Record<string, string> = {}): string {
    try {
      parseConfig(raw, env);
    } catch (e) {
      if (isAppError(e)) return e.message;
      throw e;
    }
    throw new Error("expected a failure");
  }

  it("log.level and log.format from the file or PPS_EDGE_LOG_LEVEL / PPS_EDGE_LOG_FORMAT", () => {
    expect(parseConfig({}).log).toEqual({ level: "info", format: "auto" });
    expect(parseConfig({ log: { level: "warn", format: "pretty" } }).log).toEqual({
      level: "warn",
      format: "pretty",
    });
    expect(parseConfig({}, { PPS_EDGE_LOG_LEVEL: "debug", PPS_EDGE_LOG_FORMAT: "json" }).log).toEqual({
      level: "debug",
      format: "json",
    });
  });

  it("an unknown level or format is a config error naming the key", () => {
    expect(failure({ log: { level: "loud" } })).toMatch(/^invalid configuration: log\.level: /);
    expect(failure({}, { PPS_EDGE_LOG_LEVEL: "verbose" })).toMatch(/log\.level: .*"debug"/);
    expect(failure({}, { PPS_EDGE_LOG_FORMAT: "xml" })).toMatch(/log\.format: .*"pretty"/);
  });
});
