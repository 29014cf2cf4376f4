/**
 * `pps-edge check [--quick]`: whether the station database is whole (db/integrity.ts). The agent runs
 * the quick check at every start and refuses a damaged database; this runs the full one
 * (`PRAGMA integrity_check`, which also checks that every index matches its table) on demand, read-only,
 * beside a running agent too. Prints `ok` and the file, or each problem SQLite found; exit 1 on damage.
 * A whole database that a newer version migrated gets the line the start refuses it with, and exit 1.
 */
import { join, resolve } from "node:path";
import { Command } from "commander";
import { failureLine } from "../start-error.js";
import { type Cli, EXIT, loadCliConfig } from "./context.js";

/** The start's refusal of a database a newer version migrated, if this one is (db/written-by.ts). */
async function newerThanThisVersion(path: string) {
  const { newerDatabaseIn } = await import("../db/open.js");
  const { newerDatabase } = await import("../parts/foundation.failures.js");
  const found = newerDatabaseIn(path);
  return found ? newerDatabase(path, found) : undefined;
}

export function defineCheck(cli: Cli): Command {
  return new Command("check")
    .description("check that the station database is whole (PRAGMA integrity_check); exit 1 if damaged")
    .option("--quick", "only PRAGMA quick_check, as at every start (faster: indexes are not compared)")
    .action(async (opts: { quick?: boolean }, cmd: Command) => {
      const { config } = loadCliConfig(cmd, cli.io);
      const { DB_FILE } = await import("../db/open.js");
      const { checkDatabaseFile } = await import("../db/integrity.js");
      const path = join(resolve(config.dataDir), DB_FILE);
      const problems = checkDatabaseFile(path, opts.quick ? "quick" : "full");
      const newer = problems.length === 0 ? await newerThanThisVersion(path) : undefined;
      if (newer) {
        cli.io.err(failureLine(newer, false));
        cli.code = EXIT.failure;
        return;
      }
      if (problems.length === 0) {
        cli.io.out(`ok: ${path}`);
        return;
      }
      cli.io.err(`pps-edge: the database ${path} is damaged (${problems.length} problems):`);
      for (const p of problems) cli.io.err(`  ${p}`);
      cli.code = EXIT.failure;
    });
}
