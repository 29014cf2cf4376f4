import { createServer } from "node:net";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { createAgent } from "../../../src/app/agent.js";
import { type Part, startParts, stopParts } from "../../../src/app/lifecycle.js";
import { parseConfig } from "../../../src/config/config.load.js";
import { isStartError } from "../../../src/start-error.js";
import { ADMIN, ADMIN_PASSWORD, BASIC, CLIENT_ID, CLIENT_SECRET, tempDir } from "../../support/agent.js";

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
      const failed = createAgent(config(port), { log: silent }).start();
      await expect(failed).rejects.toThrow(/EADDRINUSE/);
      // a start error: the key and the fix, printed as one line by the command line
      await expect(failed).rejects.toSatisfy((e) => isStartError(e) && e.key === "http.port");
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

/** An agent on `dataDir` with the test credentials and the given overrides, not started. */
function agentOn(dataDir: string, overrides: Record<string, unknown> = {}) {
  const config = parseConfig({
    dataDir,
    http: { host: "127.0.0.1", port: 0 },
    mqtt: { url: "off" },
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    adminUser: ADMIN,
    adminPassword: ADMIN_PASSWORD,
    ...overrides,
  });
  return createAgent(config, { log: silent });
}

describe("one agent per data folder", () => {
  it("refuses a second agent on the folder while the first runs, naming dataDir and the pid", async () => {
    const dataDir = tempDir();
    const first = agentOn(dataDir);
    await first.start(false);
    try {
      const second = agentOn(dataDir).start(false);
      await expect(second).rejects.toSatisfy((e) => isStartError(e) && e.key === "dataDir");
      await expect(second).rejects.toThrow(
        `is in use by another pps-edge agent (pid ${process.pid}, started `,
      );
    } finally {
      await first.stop();
    }
    // stopped, the folder is free again
    const third = agentOn(dataDir);
    await third.start(false);
    await third.stop();
  });
});

describe("the embedded broker's port taken", () => {
  it("keeps the station working offline, /readyz saying why", async () => {
    const blocker = createServer();
    await new Promise<void>((ok) => blocker.listen(0, "127.0.0.1", () => ok()));
    const port = (blocker.address() as { port: number }).port;
    const agent = agentOn(tempDir(), {
      mqtt: { url: "embedded", embeddedHost: "127.0.0.1", embeddedPort: port },
    });
    try {
      await agent.start();
      const base = `http://127.0.0.1:${agent.address?.port}`;
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(503);
      const { checks } = (await ready.json()) as { checks: Record<string, { ok: boolean; detail: string }> };
      expect(checks.mqtt).toEqual({
        ok: false,
        detail: expect.stringMatching(
          new RegExp(`^embedded broker cannot listen on 127\\.0\\.0\\.1:${port}: .*EADDRINUSE`),
        ),
      });
      expect(checks.database).toEqual({ ok: true });
      // the station API answers: sign in and read the station state
      const token = await fetch(`${base}/api-gateway/auth-service/platform-auth/oauth/token`, {
        method: "POST",
        headers: { Authorization: BASIC, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "password", username: ADMIN, password: ADMIN_PASSWORD }),
      });
      expect(token.status).toBe(200);
      const { access_token } = (await token.json()) as { access_token: string };
      const state = await fetch(`${base}/station/state`, {
        headers: { Authorization: `Bearer ${access_token}` },
      });
      expect(state.status).toBe(200);
    } finally {
      await agent.stop();
      blocker.close();
    }
  });
});
