/**
 * `pps-edge status` beside a real agent and with it stopped: the running agent's /readyz (read at the
 * configured address) and the database, read-only, in one summary; exit 0 only when it runs and is ready.
 */
import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { VERSION } from "../../../src/version.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { runCli } from "../../support/cli.js";
import { freePort } from "../../support/sync/brokers.js";

describe("pps-edge status", () => {
  let t: TestAgent | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  async function agent(extra: Record<string, unknown> = {}) {
    const port = await freePort();
    t = await startTestAgent({ http: { host: "127.0.0.1", port }, ...extra }, { listen: true });
    return { t, env: { PPS_EDGE_DATA_DIR: t.dir, PPS_EDGE_HTTP_PORT: String(port) } };
  }

  it("sums up a running, ready agent: readiness checks, outbox, seats; exit 0", async () => {
    const { t, env } = await agent();
    expect((await t.call("POST", "/station/seats/front/login", { user: "alice" })).status).toBe(200);
    const res = await runCli(["status"], env);
    expect(res.err).toBe("");
    expect(res.code).toBe(0);
    const lines = res.out.split("\n");
    expect(lines[0]).toMatch(
      new RegExp(`^agent: running, pid ${process.pid}, since .+; version ${VERSION}$`),
    );
    expect(lines[1]).toBe("ready: yes");
    expect(lines.slice(2, 8).map((l) => l.trim().split(/\s+/).slice(0, 2))).toEqual([
      ["database", "ok"],
      ["storage", "ok"],
      ["storage_budget", "ok"],
      ["devices", "ok"],
      ["outbox", "ok"],
      ["mqtt", "ok"],
    ]);
    expect(res.out).toContain("outbox: 0 undelivered, oldest 0 s; 0 dead letters; last seq 0");
    expect(res.out).toMatch(/^seats: back \(nobody\), front \(alice since [^)]+\)$/m);
    expect(res.out).toMatch(/^bins with work: none$/m);

    const json = JSON.parse((await runCli(["status", "--json"], env)).out);
    expect(json).toMatchObject({ running: true, ready: true, problem: null, version: VERSION, mode: "pick" });
    expect(json.checks.mqtt).toEqual({ ok: true, detail: "off" });
  });

  it("says which check fails: exit 1", async () => {
    const { t, env } = await agent({ mqtt: { url: "off", outboxWarnDepth: 1 } });
    t.agent.services.unitOfWork.run((tx) => tx.notify("order_information", { n: 1 }));
    const res = await runCli(["status"], env);
    expect(res.code).toBe(1);
    expect(res.err).toBe("pps-edge: not ready: outbox");
    expect(res.out).toMatch(/^ready: no \(not ready: outbox\)$/m);
    expect(res.out).toMatch(/^ {2}outbox +FAIL +1 undelivered/m);
  });

  it("with the agent stopped: what the database says, exit 1 naming it", async () => {
    const { t: running, env } = await agent();
    await running.agent.stop();
    const res = await runCli(["status"], env);
    expect(res.code).toBe(1);
    expect(res.err).toBe("pps-edge: the agent is not running");
    expect(res.out.split("\n").slice(0, 2)).toEqual([
      `agent: not running; version ${VERSION}`,
      "ready: no (the agent is not running)",
    ]);
    expect(res.out).toContain("outbox: 0 undelivered");
    rmSync(running.dir, { recursive: true, force: true });
    t = undefined;
  });

  it("a data folder without a database is a failure naming the file", async () => {
    const dir = (await agent()).t.dir;
    const res = await runCli(["status"], { PPS_EDGE_DATA_DIR: `${dir}/nowhere` });
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/no database at .*nowhere\/pps-edge\.db/);
  });
});
