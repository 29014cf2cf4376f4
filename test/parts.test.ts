import { createServer } from "node:net";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { createAgent } from "../src/agent.js";
import { parseConfig } from "../src/config/config.load.js";
import { type Part, startParts, stopParts } from "../src/parts/part.js";
import { ADMIN, ADMIN_PASSWORD, CLIENT_ID, CLIENT_SECRET, tempDir } from "./helpers/agent.js";

const silent = pino({ level: "silent" });

function recorder() {
  const calls: string[] = [];
  const part = (name: string, opts: { fail?: boolean; critical?: boolean } = {}): Part => ({
    name,
    critical: opts.critical,
    start() {
      calls.push(`start ${name}`);
      if (opts.fail) throw new Error(`${name} failed`);
    },
    stop() {
      calls.push(`stop ${name}`);
    },
  });
  return { calls, part };
}

describe("parts start in order and stop in reverse", () => {
  it("stops every part in the reverse of the start order", async () => {
    const { calls, part } = recorder();
    const started = await startParts([part("a"), part("b"), part("c")], silent);
    await stopParts(started, silent);
    expect(calls).toEqual(["start a", "start b", "start c", "stop c", "stop b", "stop a"]);
  });

  it("a part that fails to start is skipped, the rest start, and it is still stopped", async () => {
    const { calls, part } = recorder();
    const started = await startParts([part("a"), part("printer", { fail: true }), part("c")], silent);
    expect(calls).toEqual(["start a", "start printer", "start c"]);
    await stopParts(started, silent);
    expect(calls.slice(3)).toEqual(["stop c", "stop printer", "stop a"]);
  });

  it("a critical part that fails stops what started, in reverse, and fails the start", async () => {
    const { calls, part } = recorder();
    await expect(
      startParts([part("a"), part("b"), part("http", { fail: true, critical: true }), part("d")], silent),
    ).rejects.toThrow("http failed");
    expect(calls).toEqual(["start a", "start b", "start http", "stop http", "stop b", "stop a"]);
  });

  it("a part that fails to stop does not keep the others running", async () => {
    const calls: string[] = [];
    const parts: Part[] = [
      { name: "a", start() {}, stop: () => void calls.push("stop a") },
      {
        name: "b",
        start() {},
        stop() {
          throw new Error("stuck");
        },
      },
    ];
    await stopParts(parts, silent);
    expect(calls).toEqual(["stop a"]);
  });
});

describe("the agent's start fails whole when its HTTP port is taken", () => {
  it("rejects, closes what it opened, and a later start on a free port works", async () => {
    const blocker = createServer();
    await new Promise<void>((ok) => blocker.listen(0, "127.0.0.1", () => ok()));
    const port = (blocker.address() as { port: number }).port;
    const dataDir = tempDir();
    const config = (p: number) =>
      parseConfig({
        dataDir,
        http: { host: "127.0.0.1", port: p },
        mqtt: { url: "off" },
        clientId: CLIENT_ID,
        clientSecret: CLIENT_SECRET,
        adminUser: ADMIN,
        adminPassword: ADMIN_PASSWORD,
      });
    try {
      await expect(createAgent(config(port), { log: silent }).start()).rejects.toThrow(/EADDRINUSE/);
    } finally {
      blocker.close();
    }
    // the database was closed by the failed start: a new agent opens it and serves
    const agent = createAgent(config(0), { log: silent });
    await agent.start();
    const res = await fetch(`http://127.0.0.1:${agent.address?.port}/healthz`);
    expect(res.status).toBe(200);
    await agent.stop();
  });
});
