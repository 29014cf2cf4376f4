import { statSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createAuthRepo } from "../src/db/auth.repo.js";
import { openDatabase } from "../src/db/open.js";
import { main } from "../src/main.js";
import { verifyPassword } from "../src/services/auth/password.js";
import { tempDir } from "./helpers/agent.js";

async function run(args: string[], env: Record<string, string>, stdin = "") {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, {
    stdin: Readable.from([Buffer.from(stdin)]),
    out: (s) => out.push(s),
    err: (s) => err.push(s),
    env,
  });
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("pps-edge user", () => {
  it("adds, lists, resets and removes users; passwords are scrypt hashes", async () => {
    const dir = tempDir();
    const env = { PPS_EDGE_DATA_DIR: dir };
    expect((await run(["user", "add", "alice"], env, "correct horse battery\n")).code).toBe(0);
    expect((await run(["user", "list"], env)).out).toMatch(/\talice$/m);
    const dup = await run(["user", "add", "alice"], env, "another password\n");
    expect(dup.code).toBe(1);
    expect(dup.err).toContain("exists");

    const db = openDatabase(join(dir, "pps-edge.db"));
    const hash1 = createAuthRepo(db.db).findUser("alice")?.passwordHash as string;
    expect(hash1).toMatch(/^scrypt\$/);
    expect(hash1).not.toContain("correct horse");
    expect(await verifyPassword("correct horse battery", hash1)).toBe(true);

    expect((await run(["user", "reset-password", "alice"], env, "a new password\n")).code).toBe(0);
    const hash2 = createAuthRepo(db.db).findUser("alice")?.passwordHash as string;
    expect(await verifyPassword("a new password", hash2)).toBe(true);
    expect(await verifyPassword("correct horse battery", hash2)).toBe(false);

    expect((await run(["user", "remove", "alice"], env)).code).toBe(0);
    expect(createAuthRepo(db.db).findUser("alice")).toBeUndefined();
    expect((await run(["user", "remove", "alice"], env)).code).toBe(1);
    db.close();
  });

  it("refuses a short password and a missing name", async () => {
    const env = { PPS_EDGE_DATA_DIR: tempDir() };
    const short = await run(["user", "add", "bob"], env, "short\n");
    expect(short.code).toBe(2);
    expect(short.err).toContain("at least 8");
    expect((await run(["user", "add"], env)).code).toBe(2);
  });

  it("stops with the key and reason for an invalid config", async () => {
    const bad = await run(["user", "list"], { PPS_EDGE_DATA_DIR: tempDir(), PPS_EDGE_HTTP_PORT: "99999" });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("http.port");
  });

  it("prints usage for an unknown command", async () => {
    const res = await run(["frobnicate"], { PPS_EDGE_DATA_DIR: tempDir() });
    expect(res.code).toBe(2);
    expect(res.err).toContain("usage: pps-edge");
  });

  it("leaves the database file where the config says", async () => {
    const dir = tempDir();
    await run(["user", "add", "carol"], { PPS_EDGE_DATA_DIR: dir }, "carol's password\n");
    expect(statSync(join(dir, "pps-edge.db")).isFile()).toBe(true);
  });
});
