/**
 * `pps-edge check [--quick]`: what the agent would refuse at start, found without starting it: the
 * config (every key at fault), the station file and its firmware profiles (every problem of the file),
 * and whether the station database is whole (db/integrity.ts). The agent runs the quick check at every
 * start and refuses a damaged database; this runs the full one (`PRAGMA integrity_check`, which also
 * checks that every index matches its table), read-only, beside a running agent too. A whole database
 * that a newer version migrated gets the line the start refuses it with. Prints `ok` for the database
 * when all is well, or each problem; exit 1 on any.
 */
import { join, resolve } from "node:path";
import { Command } from "commander";
import type { Config } from "../../config/config.schema.js";
import { isAppError } from "../../domain/errors.js";
import { failureLine } from "../../start-error.js";
import { type Cli, EXIT, loadCliConfig } from "./context.js";

/** The problem on one line, then each field error of its cause (a station file lists them all). */
function problemsOf(e: unknown): string[] {
  const cause = (e as { cause?: unknown }).cause ?? e;
  const lines = [e instanceof Error ? e.message : String(e)];
  if (isAppError(cause) && cause.errors.length > 1)
    for (const x of cause.errors) lines.push(`  ${x.path}: ${x.message}`);
  return lines;
}

/** The start's refusal of a database a newer version migrated, if this one is (db/written-by.ts). */
async function newerThanThisVersion(path: string) {
  const { newerDatabaseIn } = await import("../../db/open.js");
  const { newerDatabase } = await import("../start-failures.js");
  const found = newerDatabaseIn(path);
  return found ? newerDatabase(path, found) : undefined;
}

/** The station file and profiles, loaded as the start loads them. */
async function stationProblems(config: Config): Promise<string[]> {
  const { loadStationOrExplain } = await import("../start-failures.js");
  try {
    await loadStationOrExplain(config);
    return [];
  } catch (e) {
    return problemsOf(e);
  }
}

export function defineCheck(cli: Cli): Command {
  const { io } = cli;
  return new Command("check")
    .description(
      "check the config, the station file and its profiles, and that the database is whole; exit 1 on any problem",
    )
    .option("--quick", "only PRAGMA quick_check, as at every start (faster: indexes are not compared)")
    .action(async (opts: { quick?: boolean }, cmd: Command) => {
      let config: Config;
      try {
        ({ config } = loadCliConfig(cmd, io));
      } catch (e) {
        for (const l of problemsOf(e)) io.err(l.startsWith("  ") ? l : `pps-edge: config: ${l}`);
        cli.code = EXIT.failure;
        return;
      }
      // the config and the station file are silent when good: `ok` names the database, as before
      const station = await stationProblems(config);
      for (const l of station) io.err(l.startsWith("  ") ? l : `pps-edge: station: ${l}`);
      const { DB_FILE } = await import("../../db/open.js");
      const { checkDatabaseFile } = await import("../../db/integrity.js");
      const path = join(resolve(config.dataDir), DB_FILE);
      const problems = checkDatabaseFile(path, opts.quick ? "quick" : "full");
      const newer = problems.length === 0 ? await newerThanThisVersion(path) : undefined;
      if (newer) io.err(failureLine(newer, false));
      else if (problems.length === 0) io.out(`ok: ${path}`);
      else {
        io.err(`pps-edge: the database ${path} is damaged (${problems.length} problems):`);
        for (const p of problems) io.err(`  ${p}`);
      }
      if (station.length > 0 || problems.length > 0 || newer) cli.code = EXIT.failure;
    });
}
