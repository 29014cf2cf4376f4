/**
 * `pps-edge report shift`: the shift report (docs/cli.md#shift-report), one CSV row per operator's session
 * at a seat that ended in the period (docs/station.md#productivity-and-the-shift), written to standard
 * output. It reads the station database like `security-events` (database.ts), beside a running agent too.
 */
import { Command } from "commander";
import { shiftCsv, shiftPeriod, shiftReportQuerySchema } from "../../domain/session-summary.js";
import { type Cli, loadCliConfig, UsageError } from "./context.js";

interface Options {
  from?: string;
  to?: string;
}

/** The options as the period, checked by the domain's schema; a bad one is a usage error naming it. */
function period(opts: Options, now: number) {
  const parsed = shiftReportQuerySchema.safeParse({ from: opts.from, to: opts.to });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`--${String(issue?.path[0] ?? "from")}: ${issue?.message ?? "invalid"}`);
  }
  return shiftPeriod(parsed.data, now);
}

function defineShift(cli: Cli): Command {
  return new Command("shift")
    .description("the operators' sessions that ended in the period, as CSV (one row per session)")
    .option(
      "--from <time>",
      "from this ISO 8601 time on, e.g. 2026-11-28T06:00:00Z (default: 24 hours before --to)",
    )
    .option("--to <time>", "before this ISO 8601 time (default: now)")
    .action(async (opts: Options, cmd: Command) => {
      const { from, to } = period(opts, Date.now());
      const loaded = loadCliConfig(cmd, cli.io);
      const { withDatabase } = await import("./database.js");
      const { createShiftRepo } = await import("../../db/shift.repo.js");
      await withDatabase(loaded, false, (handle) => {
        // out() ends the text with LF: the last row keeps its CR, so every row ends with CRLF (RFC 4180)
        cli.io.out(shiftCsv(createShiftRepo(handle.sqlite).endedBetween(from, to)).replace(/\n$/, ""));
      });
    });
}

export function defineReport(cli: Cli): Command {
  return new Command("report")
    .description("reports of the station's work (shift: the operators' sessions as CSV)")
    .addCommand(defineShift(cli));
}
