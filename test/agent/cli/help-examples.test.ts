/**
 * Every example command line the help prints (`pps-edge --help` and each command's) runs as printed:
 * a newcomer copies them first, so one that fails ("--role is required") is a broken promise.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EXIT } from "../../../src/app/cli/context.js";
import { createProgram } from "../../../src/app/cli/program.js";
import { DB_FILE, openDatabase } from "../../../src/db/open.js";
import { tempDir } from "../../support/agent.js";
import { runCli } from "../../support/cli.js";

/** Every command path of the command line, e.g. ["user", "add"], the program itself first. */
function commandPaths(cmd: Command, prefix: string[] = []): string[][] {
  return [
    prefix,
    ...cmd.commands.filter((c) => c.name() !== "help").flatMap((c) => commandPaths(c, [...prefix, c.name()])),
  ];
}

/**
 * The examples of a help text: `pps-edge WORDS` where a command line is shown (`source <(pps-edge …)`,
 * `(sudo pps-edge …)`, `… | pps-edge ….`), with what an `echo '…' |` before it pipes in.
 */
function examples(help: string): Array<{ words: string[]; stdin: string }> {
  return [...help.matchAll(/(?:echo '([^']*)' \| )?pps-edge ([a-z][\w ./-]*?)(?=\)|\.\s|\.?$)/gm)].map(
    (m) => ({
      words: (m[2] as string).split(" "),
      stdin: m[1] === undefined ? "" : `${m[1]}\n`,
    }),
  );
}

let dir: string;
beforeEach(() => {
  dir = tempDir();
  openDatabase(join(dir, DB_FILE)).close();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("the examples of pps-edge --help", () => {
  it("each runs as printed on a station (exit 0)", async () => {
    const program = createProgram({
      io: { stdin: process.stdin, out: () => {}, err: () => {}, env: {} },
      code: 0,
    });
    const found = new Map<string, { words: string[]; stdin: string }>();
    for (const path of commandPaths(program)) {
      const help = await runCli([...path, "--help"], {});
      expect([path.join(" "), help.code]).toEqual([path.join(" "), EXIT.ok]);
      for (const e of examples(help.out)) found.set(e.words.join(" "), e);
    }
    expect([...found.keys()].filter((k) => k.startsWith("user add "))).toHaveLength(1);
    for (const { words, stdin } of found.values()) {
      // a file the example writes goes into this test's folder
      const args = words.map((w) => w.replace(/^\/tmp\//, `${dir}/`));
      const r = await runCli(args, { PPS_EDGE_DATA_DIR: dir }, stdin);
      expect([words.join(" "), r.code, r.err]).toEqual([words.join(" "), EXIT.ok, ""]);
    }
  });
});
