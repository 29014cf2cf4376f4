/**
 * The command line (commander): the commands, the global options, and the rules every command keeps:
 * `--help` prints usage and does nothing else, an unknown command or option is an error with a
 * suggestion, and nothing calls process.exit (main turns the outcome into the exit code, so tests run
 * it in-process). commander: the most used argument parser for Node, no dependencies, typed, with
 * subcommands, help, suggestions and an exit override built in.
 */
import { Command } from "commander";
import { VERSION } from "../../version.js";
import { defineBackup, defineRestore } from "./backup.command.js";
import { defineCheck } from "./check.command.js";
import { defineCompletion } from "./completion.command.js";
import type { Cli, Io } from "./context.js";
import { defineDiag } from "./diag.command.js";
import { defineOutbox } from "./outbox.command.js";
import { defineProfiles } from "./profiles.command.js";
import { defineReport } from "./report.command.js";
import { defineRun } from "./run.command.js";
import { defineSecurityEvents } from "./security-events.command.js";
import { defineSim } from "./sim.command.js";
import { defineStatus } from "./status.command.js";
import { defineUser } from "./user.command.js";
import { defineWebhooks } from "./webhooks.command.js";

const AFTER_HELP = `
Configuration: --config FILE (or PPS_EDGE_CONFIG), and PPS_EDGE_<KEY> variables over it.
Exit codes: 0 done; 1 failed (the reason on one line); 2 usage (unknown command or option, a missing
or bad argument, a refused password); pps-edge sim: 3 when the station refused the action.
Shell completion: source <(pps-edge completion bash)`;

/** One line without its trailing newline, as Io writes lines. */
const line = (s: string) => s.replace(/\n$/, "");

/** The settings every command needs (commander copies them only to commands made with .command()). */
function configure(cmd: Command, io: Io, path: string): void {
  cmd
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.out(line(s)),
      writeErr: (s) => io.err(line(s)),
      outputError: (s, write) => write(s.replace(/^error: /, "pps-edge: ")),
    })
    .showSuggestionAfterError(true)
    .showHelpAfterError(`(${path} --help for usage)`)
    .configureHelp({ showGlobalOptions: true });
  for (const sub of cmd.commands) configure(sub, io, `${path} ${sub.name()}`);
}

export function createProgram(cli: Cli): Command {
  const program = new Command("pps-edge")
    .description("Edge agent of a warehouse pick/put station")
    .version(VERSION, "-V, --version", "print the version")
    .option("-c, --config <file>", "the config file (YAML); default: PPS_EDGE_CONFIG, else none")
    .addHelpText("after", AFTER_HELP);
  for (const define of [
    defineRun,
    defineUser,
    defineSim,
    defineProfiles,
    defineCheck,
    defineBackup,
    defineRestore,
    defineDiag,
    defineStatus,
    defineSecurityEvents,
    defineReport,
    defineOutbox,
    defineWebhooks,
    defineCompletion,
  ]) {
    program.addCommand(define(cli));
  }
  configure(program, cli.io, "pps-edge");
  return program;
}
