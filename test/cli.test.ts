import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createAuthRepo } from "../src/db/auth.repo.js";
import { openDatabase } from "../src/db/open.js";
import { MIN_PASSWORD_LENGTH } from "../src/domain/password-policy.js";
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
    expect((await run(["user", "add", "alice", "--init"], env, "correct horse battery\n")).code).toBe(0);
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
    // the product's one rule: one character short of it is refused, the rule's length passes
    const short = await run(
      ["user", "add", "bob", "--init"],
      env,
      `${"x".repeat(MIN_PASSWORD_LENGTH - 1)}\n`,
    );
    expect(short.code).toBe(2);
    expect(short.err).toContain(`at least ${MIN_PASSWORD_LENGTH}`);
    expect(MIN_PASSWORD_LENGTH).toBe(12);
    expect((await run(["user", "list"], env)).out).not.toContain("bob");
    expect((await run(["user", "add", "bob"], env, `${"x".repeat(MIN_PASSWORD_LENGTH)}\n`)).code).toBe(0);
    const missing = await run(["user", "add"], env);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("missing required argument 'name'");
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
    await run(["user", "add", "carol", "--init"], { PPS_EDGE_DATA_DIR: dir }, "carol's password\n");
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
    const fromFile = await run(["--config", file, "user", "add", "dave"], {}, "dave's long password\n");
    expect(fromFile.code).toBe(1);
    expect(fromFile.err).toContain(`(dataDir from ${file}); pass --init to create one`);
    expect(existsSync(join(dir, "data"))).toBe(false);

    expect((await run(["user", "list", "--init"], { PPS_EDGE_CONFIG: file })).code).toBe(0);
    expect(existsSync(join(dir, "data", "pps-edge.db"))).toBe(true);
  });
});

describe("pps-edge --help, --version and usage errors", () => {
  /** Every command path of the program, from its own help. */
  async function commands(path: string[] = []): Promise<string[][]> {
    const help = (await run([...path, "--help"], {})).out;
    const section = help.split("\nCommands:\n")[1] ?? "";
    const names = [...section.matchAll(/^ {2}([a-z][a-z-]*)/gm)].map((m) => m[1] as string);
    const below = await Promise.all(names.filter((n) => n !== "help").map((n) => commands([...path, n])));
    return [path, ...below.flat()];
  }

  it("answers --help on every command with its usage and does nothing else", async () => {
    const dir = tempDir();
    const all = await commands();
    expect(all.map((p) => p.join(" "))).toEqual(
      expect.arrayContaining([
        "",
        "run",
        "user",
        "user add",
        "user reset-password",
        "sim",
        "sim scan",
        "profiles",
      ]),
    );
    for (const path of all) {
      const res = await run([...path, "--help"], { PPS_EDGE_DATA_DIR: dir }, "a long enough password\n");
      expect(res.code, path.join(" ")).toBe(0);
      expect(res.out).toContain(`Usage: ${["pps-edge", ...path].join(" ")}`);
      expect(res.err).toBe("");
    }
    // `user add --init --help` created no database, `run --help` started nothing
    expect(readdirSync(dir)).toEqual([]);
    expect((await run(["user", "add", "--help", "--init", "alice"], { PPS_EDGE_DATA_DIR: dir })).code).toBe(
      0,
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it("prints the version, and help for a command", async () => {
    const { VERSION } = await import("../src/version.js");
    expect(await run(["--version"], {})).toEqual({ code: 0, out: VERSION, err: "" });
    const help = await run(["help", "user"], {});
    expect(help.code).toBe(0);
    expect(help.out).toContain("Usage: pps-edge user");
    expect(help.out).toContain("reset-password");
  });

  it("refuses unknown options, missing and bad arguments with exit code 2", async () => {
    const env = { PPS_EDGE_DATA_DIR: tempDir() };
    const option = await run(["user", "list", "--int"], env);
    expect(option).toMatchObject({ code: 2 });
    expect(option.err).toContain("unknown option '--int'");
    expect(option.err).toContain("(Did you mean --init?)");
    expect((await run(["run", "--port", "1"], env)).code).toBe(2);
    expect((await run(["sim", "sensor", "1", "maybe"], env)).err).toContain("Allowed choices are on, off");
    expect((await run(["sim", "keyin", "front", "two"], env)).code).toBe(2);
    expect((await run(["run", "extra"], env)).code).toBe(2);
    const bare = await run([], env);
    expect(bare.code).toBe(2);
    expect(bare.err).toContain("Usage: pps-edge");
  });
});

/** A terminal: raw mode as readline asks for it, and answers typed when each question appears. */
function terminal(answers: string[]) {
  const stdin = Object.assign(new PassThrough(), {
    isTTY: true,
    isRaw: false,
    setRawMode(mode: boolean) {
      stdin.isRaw = mode;
      return stdin;
    },
  });
  const prompt = new PassThrough();
  let shown = "";
  prompt.on("data", (d) => {
    shown += String(d);
    // each question ends with a space; answer it once, as a person types: keys, then Enter
    if (shown.endsWith(": ") && answers.length > 0) setImmediate(() => stdin.write(`${answers.shift()}\r`));
  });
  return { stdin, prompt, shown: () => shown };
}

describe("pps-edge user on a terminal", () => {
  it("asks for the password twice without showing it", async () => {
    const dir = tempDir();
    const tty = terminal(["a typed password", "a typed password"]);
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(["user", "add", "erin", "--init"], {
      stdin: tty.stdin,
      prompt: tty.prompt,
      out: (s) => out.push(s),
      err: (s) => err.push(s),
      env: { PPS_EDGE_DATA_DIR: dir },
    });
    expect({ code, err }).toEqual({ code: 0, err: [] });
    expect(out).toEqual(["added user erin"]);
    expect(tty.shown()).toContain("New password for erin:");
    expect(tty.shown()).toContain("The same again:");
    expect(tty.shown()).not.toContain("typed");
    expect(tty.stdin.isRaw).toBe(false);
    const db = openDatabase(join(dir, "pps-edge.db"));
    const hash = createAuthRepo(db.db).findUser("erin")?.passwordHash as string;
    expect(await verifyPassword("a typed password", hash)).toBe(true);
    db.close();
  });

  it("changes nothing when the two entries differ", async () => {
    const dir = tempDir();
    expect(
      (await run(["user", "add", "frank", "--init"], { PPS_EDGE_DATA_DIR: dir }, "frank's password\n")).code,
    ).toBe(0);
    const tty = terminal(["a new password 1", "a new password 2"]);
    const err: string[] = [];
    const code = await main(["user", "reset-password", "frank"], {
      stdin: tty.stdin,
      prompt: tty.prompt,
      out: () => {},
      err: (s) => err.push(s),
      env: { PPS_EDGE_DATA_DIR: dir },
    });
    expect(code).toBe(2);
    expect(err).toEqual(["pps-edge: password: the two entries differ; nothing changed"]);
    const db = openDatabase(join(dir, "pps-edge.db"));
    const hash = createAuthRepo(db.db).findUser("frank")?.passwordHash as string;
    expect(await verifyPassword("frank's password", hash)).toBe(true);
    db.close();
  });
});
