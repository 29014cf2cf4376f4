import { existsSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createAuthRepo } from "../../../src/db/auth.repo.js";
import { openDatabase } from "../../../src/db/open.js";
import { MIN_PASSWORD_LENGTH } from "../../../src/domain/password-policy.js";
import { verifyPassword } from "../../../src/services/auth/password.js";
import {
  ADMIN,
  ADMIN_PASSWORD,
  CLIENT_ID,
  CLIENT_SECRET,
  startTestAgent,
  tempDir,
} from "../../support/agent.js";
import { runCli as run } from "../../support/cli.js";

describe("pps-edge user", () => {
  it("adds, lists, resets and removes users; passwords are scrypt hashes", async () => {
    const dir = tempDir();
    const env = { PPS_EDGE_DATA_DIR: dir };
    expect(
      (await run(["user", "add", "alice", "--role", "integration", "--init"], env, "correct horse battery\n"))
        .code,
    ).toBe(0);
    expect((await run(["user", "list"], env)).out).toMatch(/\talice\tintegration$/m);
    const dup = await run(["user", "add", "alice", "--role", "operator"], env, "another password\n");
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
    // the product's one rule: one character short of it is refused, the rule's length passes
    const short = await run(
      ["user", "add", "bob", "--role", "operator", "--init"],
      env,
      `${"x".repeat(MIN_PASSWORD_LENGTH - 1)}\n`,
    );
    expect(short.code).toBe(2);
    expect(short.err).toContain(`at least ${MIN_PASSWORD_LENGTH}`);
    expect(MIN_PASSWORD_LENGTH).toBe(12);
    expect((await run(["user", "list"], env)).out).not.toContain("bob");
    expect(
      (await run(["user", "add", "bob", "--role", "operator"], env, `${"x".repeat(MIN_PASSWORD_LENGTH)}\n`))
        .code,
    ).toBe(0);
    const missing = await run(["user", "add"], env);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("missing required argument 'name'");
  });

  it("adds with a role, changes it, lists it; no role or an unknown one is a usage error naming the roles", async () => {
    const env = { PPS_EDGE_DATA_DIR: tempDir() };
    const pw = `${"x".repeat(MIN_PASSWORD_LENGTH)}\n`;
    for (const args of [
      ["user", "add", "ann", "--init"],
      ["user", "add", "ann", "--role", "boss", "--init"],
    ]) {
      const res = await run(args, env, pw);
      expect([res.code, res.err]).toEqual([2, expect.stringContaining("integration, operator, admin")]);
    }
    expect(existsSync(join(env.PPS_EDGE_DATA_DIR, "pps-edge.db"))).toBe(false);
    expect((await run(["user", "add", "ann", "--role", "operator", "--init"], env, pw)).code).toBe(0);
    expect((await run(["user", "list"], env)).out).toMatch(/^1\tann\toperator$/m);
    const changed = await run(["user", "role", "ann", "integration"], env);
    expect([changed.code, changed.out]).toEqual([0, "ann is now integration"]);
    expect((await run(["user", "list"], env)).out).toMatch(/^1\tann\tintegration$/m);
    expect((await run(["user", "role", "ann", "integration"], env)).out).toBe("ann is integration already");
    expect((await run(["user", "role", "ann", "root"], env)).code).toBe(2);
    expect((await run(["user", "role", "nobody", "admin"], env)).code).toBe(1);
  });

  it("stops with the key and reason for an invalid config", async () => {
    const bad = await run(["user", "list"], { PPS_EDGE_DATA_DIR: tempDir(), PPS_EDGE_HTTP_PORT: "99999" });
    expect(bad.code).toBe(1);
    expect(bad.err).toContain("http.port");
    expect(bad.err).toContain("PPS_EDGE_HTTP_PORT");
    expect(bad.err.split("\n")).toHaveLength(1);
  });

  it("refuses an unknown command with a pointer to the usage, and suggests the one meant", async () => {
    const res = await run(["frobnicate"], { PPS_EDGE_DATA_DIR: tempDir() });
    expect(res.code).toBe(2);
    expect(res.err).toContain("unknown command 'frobnicate'");
    expect(res.err).toContain("pps-edge --help for usage");
    const typo = await run(["usr", "list"], { PPS_EDGE_DATA_DIR: tempDir() });
    expect(typo.code).toBe(2);
    expect(typo.err).toContain("(Did you mean user?)");
  });

  it("leaves the database file where the config says", async () => {
    const dir = tempDir();
    await run(
      ["user", "add", "carol", "--role", "admin", "--init"],
      { PPS_EDGE_DATA_DIR: dir },
      "carol's password\n",
    );
    expect(statSync(join(dir, "pps-edge.db")).isFile()).toBe(true);
  });

  it("refuses a data folder without a database unless --init, naming the path and where dataDir came from", async () => {
    const dir = tempDir();
    const missing = await run(["user", "list"], { PPS_EDGE_DATA_DIR: join(dir, "typo") });
    expect(missing.code).toBe(1);
    expect(missing.err).toBe(
      `pps-edge: no database at ${join(dir, "typo", "pps-edge.db")} (dataDir from PPS_EDGE_DATA_DIR); pass --init to create one`,
    );
    expect(existsSync(join(dir, "typo"))).toBe(false);

    const file = join(dir, "pps-edge.yaml");
    writeFileSync(file, `dataDir: ${join(dir, "data")}\n`);
    const fromFile = await run(
      ["--config", file, "user", "add", "dave", "--role", "integration"],
      {},
      "dave's long password\n",
    );
    expect(fromFile.code).toBe(1);
    expect(fromFile.err).toContain(`(dataDir from ${file}); pass --init to create one`);
    expect(existsSync(join(dir, "data"))).toBe(false);

    expect((await run(["user", "list", "--init"], { PPS_EDGE_CONFIG: file })).code).toBe(0);
    expect(existsSync(join(dir, "data", "pps-edge.db"))).toBe(true);
  });
});

describe("pps-edge sim", () => {
  it("drives the simulated devices of a running agent over its API", async () => {
    const t = await startTestAgent({}, { listen: true });
    try {
      const env = {
        PPS_EDGE_DATA_DIR: t.dir,
        PPS_EDGE_HTTP_PORT: String(t.agent.address?.port),
        PPS_EDGE_CLIENT_ID: CLIENT_ID,
        PPS_EDGE_CLIENT_SECRET: CLIENT_SECRET,
        PPS_EDGE_ADMIN_USER: ADMIN,
        PPS_EDGE_ADMIN_PASSWORD: ADMIN_PASSWORD,
      };
      expect(await run(["sim", "seats"], env)).toMatchObject({
        code: 0,
        out: expect.stringMatching(/^front: /m),
      });
      expect(await run(["sim", "lights"], env)).toEqual({ code: 0, out: "all lights off", err: "" });
      const sensor = await run(["sim", "sensor", "1", "on"], env);
      expect(sensor.code, sensor.err).toBe(0);
    } finally {
      await t.close();
    }
  });
});
