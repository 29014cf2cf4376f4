/** `user add` and `user reset-password` on a terminal: the password asked twice, never shown. */
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { main } from "../../../src/app/main.js";
import { createAuthRepo } from "../../../src/db/auth.repo.js";
import { openDatabase } from "../../../src/db/open.js";
import { verifyPassword } from "../../../src/services/auth/password.js";
import { tempDir } from "../../support/agent.js";
import { runCli as run } from "../../support/cli.js";

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
    const code = await main(["user", "add", "erin", "--role", "operator", "--init"], {
      stdin: tty.stdin,
      prompt: tty.prompt,
      out: (s) => out.push(s),
      err: (s) => err.push(s),
      env: { PPS_EDGE_DATA_DIR: dir },
    });
    expect({ code, err }).toEqual({ code: 0, err: [] });
    expect(out).toEqual(["added user erin (operator)"]);
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
      (
        await run(
          ["user", "add", "frank", "--role", "operator", "--init"],
          { PPS_EDGE_DATA_DIR: dir },
          "frank's password\n",
        )
      ).code,
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
