import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
// @ts-expect-error: plain ESM module without types
import { AGENT_NODE_FLAGS } from "../bench/lib.mjs";

const read = (p: string) => readFileSync(new URL(`../${p}`, import.meta.url), "utf8");

describe("the agent's V8 flags", () => {
  it("are the same for npm start, the systemd unit and the benchmarks", () => {
    const flags = (AGENT_NODE_FLAGS as string[]).join(" ");
    expect(flags).toMatch(/--max-semi-space-size=\d+/);
    const start = (JSON.parse(read("package.json")) as { scripts: { start: string } }).scripts.start;
    expect(start).toBe(`node ${flags} dist/main.js run`);
    expect(read("systemd/pps-edge.service")).toContain(
      `ExecStart=/usr/bin/node ${flags} /opt/pps-edge/dist/main.js run`,
    );
  });
});
