/**
 * `pps-edge user …` leaves security events in the station database, and `pps-edge security-events`
 * prints them, newest first, as text or JSON lines, filtered; bad options are usage errors (exit 2).
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../../support/agent.js";
import { runCli as run } from "../../support/cli.js";

const PASSWORD = "correct horse battery";
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  dir = tempDir();
  env = { PPS_EDGE_DATA_DIR: dir };
  expect((await run(["user", "add", "alice", "--role", "admin", "--init"], env, `${PASSWORD}\n`)).code).toBe(
    0,
  );
  expect((await run(["user", "reset-password", "alice"], env, "a new password 123\n")).code).toBe(0);
  expect((await run(["user", "add", "bob", "--role", "operator"], env, `${PASSWORD}\n`)).code).toBe(0);
  expect((await run(["user", "remove", "bob"], env)).code).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Line {
  id: number;
  at: string;
  kind: string;
  channel: string;
  username: string;
  detail: Record<string, unknown> | null;
}

const jsonLines = (out: string) => out.split("\n").map((l) => JSON.parse(l) as Line);

describe("pps-edge security-events", () => {
  it("prints the user commands' events newest first, as JSON lines", async () => {
    const res = await run(["security-events", "--json"], env);
    expect(res.code).toBe(0);
    const lines = jsonLines(res.out);
    expect(lines.map((l) => [l.kind, l.username, l.detail?.reason ?? null])).toEqual([
      ["token_revoked", "bob", "user_removed"],
      ["user_removed", "bob", null],
      ["user_added", "bob", null],
      ["token_revoked", "alice", "password_reset"],
      ["password_changed", "alice", null],
      ["user_added", "alice", null],
    ]);
    expect(lines.every((l) => l.channel === "cli" && !Number.isNaN(Date.parse(l.at)))).toBe(true);
    expect(res.out).not.toContain(PASSWORD);
  });

  it("prints text lines, filtered by kind, user, time and page", async () => {
    const text = await run(["security-events", "--kind", "user_added"], env);
    expect(text.out.split("\n").map((l) => l.split("\t").slice(1, 5))).toEqual([
      ["user_added", "cli", "bob", "-"],
      ["user_added", "cli", "alice", "-"],
    ]);
    const alice = jsonLines((await run(["security-events", "--user", "alice", "--json"], env)).out);
    expect(alice).toHaveLength(3);
    const two = jsonLines((await run(["security-events", "--limit", "2", "--json"], env)).out);
    expect(two.map((l) => l.kind)).toEqual(["token_revoked", "user_removed"]);
    const next = jsonLines(
      (await run(["security-events", "--limit", "2", "--before-id", String(two[1]?.id), "--json"], env)).out,
    );
    expect(next.map((l) => l.kind)).toEqual(["user_added", "token_revoked"]);
    expect((await run(["security-events", "--since", "2999-01-01T00:00:00Z"], env)).out).toBe("");
  });

  it.each([
    [["--since", "yesterday"], "--since"],
    [["--kind", "guessed"], "--kind"],
    [["--limit", "0"], "--limit"],
    [["--before-id", "x"], "--before-id"],
  ])("refuses %j as a usage error naming %s", async (args, name) => {
    const res = await run(["security-events", ...args], env);
    expect(res.code).toBe(2);
    expect(res.err).toContain(name);
  });

  it("refuses a data folder without a database", async () => {
    const res = await run(["security-events"], { PPS_EDGE_DATA_DIR: tempDir() });
    expect(res.code).toBe(1);
    expect(res.err).toContain("no database");
  });
});
