import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
// @ts-expect-error: plain ESM module without types
import { AGENT_NODE_FLAGS } from "../../../bench/lib.mjs";

const read = (p: string) => readFileSync(new URL(`../../../${p}`, import.meta.url), "utf8");
const LAUNCHER = "systemd/pps-edge.launcher.sh";
const haveLauncher = existsSync(new URL(`../../../${LAUNCHER}`, import.meta.url));

describe("the agent's V8 flags", () => {
  const flags = (AGENT_NODE_FLAGS as string[]).join(" ");

  it("are the same for npm start and the benchmarks", () => {
    expect(flags).toMatch(/--max-semi-space-size=\d+/);
    const start = (JSON.parse(read("package.json")) as { scripts: { start: string } }).scripts.start;
    expect(start).toBe(`node ${flags} dist/app/main.js run`);
  });

  // The systemd unit starts the launcher (/usr/bin/pps-edge), which execs Node with the flags, so that
  // `sudo -u pps-edge pps-edge status` runs with them too; the unit names no flags of its own.
  it("reach the service through the launcher the unit starts", () => {
    expect(read("systemd/pps-edge.service")).toContain("ExecStart=/usr/bin/pps-edge run");
  });

  it.skipIf(!haveLauncher)(`are the ones the launcher (${LAUNCHER}) starts Node with`, () => {
    expect(read(LAUNCHER)).toContain(`${flags} /opt/pps-edge/current/dist/app/main.js`);
  });
});
