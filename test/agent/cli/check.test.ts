/**
 * `pps-edge check` finds, without starting, what the start would refuse: a bad config, a station file
 * with problems (each one listed), and a damaged database (test/agent/durability/damaged-database.test.ts);
 * exit 0 and `ok: <database>` when all is well.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DB_FILE, openDatabase } from "../../../src/db/open.js";
import { tempDir } from "../../support/agent.js";
import { runCli } from "../../support/cli.js";

let dir: string;
let env: Record<string, string>;
const STATION = (profile: string, seat: string) =>
  `station:\n  seats: [front]\n  bins: [{ id: "1" }]\ndevices:\n  - { id: scan1, kind: scanner, profile: ${profile}, seat: ${seat}, transport: { serial: /dev/ttyUSB9 } }\n`;

beforeEach(() => {
  dir = tempDir();
  openDatabase(join(dir, DB_FILE)).close();
  env = { PPS_EDGE_DATA_DIR: dir };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("pps-edge check", () => {
  it("a good config and station file: ok, exit 0", async () => {
    const res = await runCli(["check"], env);
    expect(res).toEqual({ code: 0, out: `ok: ${join(dir, DB_FILE)}`, err: "" });
  });

  it("a bad config: exit 1 naming the key, nothing else checked", async () => {
    const file = join(dir, "pps-edge.yaml");
    writeFileSync(file, "http:\n  port: seventy\n");
    const res = await runCli(["check", "--config", file], env);
    expect(res.code).toBe(1);
    expect(res.out).toBe("");
    expect(res.err).toMatch(/^pps-edge: config: .*http\.port/);
  });

  it("a station file with several problems: each listed, exit 1, the database still checked", async () => {
    const file = join(dir, "station.yaml");
    writeFileSync(file, STATION("no-such-scanner", "nowhere"));
    const res = await runCli(["check"], { ...env, PPS_EDGE_STATION_FILE: file });
    expect(res.code).toBe(1);
    const lines = res.err.split("\n");
    expect(lines[0]).toMatch(new RegExp(`^pps-edge: station: station file ${file}: .*\\(and 1 more\\)`));
    expect(lines.slice(1).map((l) => l.trim().split(":")[0])).toEqual([
      "devices.0.profile",
      "devices.0.seat",
    ]);
    expect(res.out).toBe(`ok: ${join(dir, DB_FILE)}`);
  });

  it("a station file that cannot be read: exit 1 naming it", async () => {
    const res = await runCli(["check"], { ...env, PPS_EDGE_STATION_FILE: join(dir, "gone.yaml") });
    expect(res.code).toBe(1);
    expect(res.err).toMatch(/^pps-edge: station: .*gone\.yaml.*cannot be read/);
  });
});
