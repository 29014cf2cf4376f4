/** `pps-edge diag FILE`: the archive's files, what they say beside a running agent and without one, no secret. */
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, CLIENT_SECRET, tempDir } from "../../support/agent.js";
import { type ChildAgent, startChildAgent } from "../../support/child-agent.js";
import { runCli } from "../../support/cli.js";
import { deadline } from "../../support/deadline.js";
import { itemBody } from "../../support/fixtures.js";
import { ITEM, pickBody, pickLine, SR } from "../../support/station.js";

const dir = tempDir("pps-edge-diag-");
const data = join(dir, "data");
const SECRETS = {
  PPS_EDGE_METRICS_TOKEN: "metrics-token-never-in-diag-1",
  PPS_EDGE_MQTT_PASSWORD: "mqtt-password-never-in-diag-2",
};
let agent: ChildAgent | undefined;
afterAll(async () => {
  await agent?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const FILES = ["versions.txt", "config.yaml", "devices.txt", "readyz.txt", "database.txt", "journal.txt"];

/** The archive's files by name (without their folder), read with the system's tar. */
function unpack(archive: string): Map<string, string> {
  const names = execFileSync("tar", ["-tzf", archive], { encoding: "utf8" }).trim().split("\n");
  const folder = names[0]?.split("/")[0] ?? "";
  expect(folder).toMatch(/^pps-edge-diag-\d{8}T\d{6}\.\d{3}Z$/);
  return new Map(
    names.map((n) => [
      n.slice(folder.length + 1),
      execFileSync("tar", ["-xzOf", archive, n], { encoding: "utf8" }),
    ]),
  );
}

describe("pps-edge diag", () => {
  it(
    "beside a running agent: readiness, outbox counts, integrity, devices; no secret",
    async () => {
      agent = await startChildAgent(data, { ...SECRETS });
      expect((await agent.call("POST", ITEM, itemBody("D"))).status).toBeLessThan(300);
      expect(
        (await agent.call("POST", SR, pickBody("D-1", [pickLine("D-1-1", "D", 1)]))).status,
      ).toBeLessThan(300);
      const port = new URL(agent.base).port;
      const archive = join(dir, "running.tar.gz");
      const res = await runCli(["diag", archive], {
        ...SECRETS,
        PPS_EDGE_DATA_DIR: data,
        PPS_EDGE_HTTP_PORT: port,
        PPS_EDGE_CLIENT_SECRET: CLIENT_SECRET,
        PPS_EDGE_ADMIN_PASSWORD: ADMIN_PASSWORD,
        PPS_EDGE_MQTT_URL: "mqtt://central:url-password-never-in-diag-3@broker.example:1883",
      });
      expect(res.err).toBe("");
      expect(res.code).toBe(0);
      expect(res.out).toContain(`wrote ${archive}:`);
      const files = unpack(archive);
      expect([...files.keys()]).toEqual(FILES);
      const everything = [...files.values()].join("\n");
      for (const secret of [
        CLIENT_SECRET,
        ADMIN_PASSWORD,
        ...Object.values(SECRETS),
        "url-password-never-in-diag-3",
      ])
        expect(everything).not.toContain(secret);
      expect(files.get("config.yaml")).toContain('clientSecret: "[redacted]"');
      expect(files.get("config.yaml")).toContain("url: mqtt://central:***@broker.example:1883");
      expect(files.get("versions.txt")).toMatch(/^pps-edge \d+\.\d+\.\d+\n/);
      expect(files.get("versions.txt")).toContain(`node ${process.version}`);
      expect(files.get("readyz.txt")).toContain(`GET http://127.0.0.1:${port}/readyz: 200`);
      expect(files.get("readyz.txt")).toContain('"devices"');
      expect(files.get("database.txt")).toMatch(/outbox undelivered [1-9]\d*\n/);
      expect(files.get("database.txt")).toContain("outbox dead letters 0");
      expect(files.get("database.txt")).toContain("PRAGMA integrity_check: ok");
      expect(files.get("devices.txt")).toContain("sim-scanner-front\tscanner\tsim");
      expect(files.get("journal.txt")).not.toBe("");
    },
    deadline(60_000),
  );

  it("without an agent: says it is not running, and still writes everything else", async () => {
    await agent?.stop();
    agent = undefined;
    const archive = join(dir, "stopped.tar.gz");
    const res = await runCli(["diag", archive], { PPS_EDGE_DATA_DIR: data, PPS_EDGE_HTTP_PORT: "1" });
    expect(res.code).toBe(0);
    const files = unpack(archive);
    expect(files.get("readyz.txt")).toMatch(
      /^the agent is not running \(GET http:\/\/127\.0\.0\.1:1\/readyz: /,
    );
    expect(files.get("database.txt")).toContain("PRAGMA integrity_check: ok");
    expect(files.get("database.txt")).toContain(
      "durability: db.synchronous FULL: an acknowledged change survives power loss",
    );
    // a station that gave power safety up says so in the archive too
    const normal = join(dir, "normal.tar.gz");
    const env = {
      PPS_EDGE_DATA_DIR: data,
      PPS_EDGE_DB_SYNCHRONOUS: "NORMAL",
      PPS_EDGE_DB_POWER_SAFE: "false",
    };
    expect((await runCli(["diag", normal], env)).code).toBe(0);
    expect(unpack(normal).get("database.txt")).toContain(
      "durability: db.synchronous NORMAL with db.powerSafe false: an acknowledged change can be lost on power loss",
    );
  });

  it("refuses a missing FILE, an existing one and a folder that does not exist", async () => {
    const env = { PPS_EDGE_DATA_DIR: data };
    const taken = join(dir, "taken.tar.gz");
    writeFileSync(taken, "mine");
    const cases: Array<[string[], number, string]> = [
      [["diag"], 2, "missing required argument 'file'"],
      [["diag", taken], 1, "exists: name a new file"],
      [["diag", join(dir, "nowhere", "d.tar.gz")], 1, "the folder"],
    ];
    for (const [args, code, message] of cases) {
      const res = await runCli(args, env);
      expect([args, res.code]).toEqual([args, code]);
      expect(res.err).toContain(message);
    }
  });
});
