#!/usr/bin/env node
/**
 * The `pps-edge` command (package.json `bin`): the command line of cli/, run with the process's own
 * streams when this file is the entry. `main` returns the exit code (docs/cli.md), or -1
 * while `run` keeps the agent running; it never exits the process itself.
 */
import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { CommanderError } from "commander";
import { failureLine } from "../start-error.js";
import { EXIT, type Io, UsageError } from "./cli/context.js";
import { createProgram } from "./cli/program.js";

export type { Io };

export async function main(argv: string[], io: Io): Promise<number> {
  const cli = { io, code: EXIT.ok as number };
  try {
    await createProgram(cli).parseAsync(argv, { from: "user" });
  } catch (e) {
    // commander has printed what it had to say: help and version are done, anything else is usage
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (e instanceof UsageError) {
      io.err(`pps-edge: ${e.message}`);
      return EXIT.usage;
    }
    io.err(failureLine(e, false));
    return EXIT.failure;
  }
  return cli.code;
}

function isEntry(): boolean {
  const argv1 = process.argv[1];
  if (!argv1) return false;
  try {
    return realpathSync(argv1) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntry()) {
  main(process.argv.slice(2), {
    stdin: process.stdin,
    out: (s) => process.stdout.write(`${s}\n`),
    err: (s) => process.stderr.write(`${s}\n`),
    env: process.env,
    prompt: process.stderr,
  }).then((code) => {
    if (code >= 0) process.exitCode = code;
  });
}
