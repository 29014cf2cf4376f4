/**
 * `pps-edge backup [FILE]` and `pps-edge restore FILE` (docs/cli.md#backup-and-restore): the station
 * database copied out while the agent runs or not (db/backup.ts), and put back with no agent running
 * (db/restore.ts). The backup never migrates: the package's upgrade step runs `pps-edge backup --keep 5`
 * with the old version's schema still in place, so the backup is what the old version can restore.
 */
import { join, resolve } from "node:path";
import { Command, InvalidArgumentError } from "commander";
import { type Cli, loadCliConfig, UsageError } from "./context.js";

/** `--keep N`: a whole number of backups, at least 1. */
function keepCount(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1)
    throw new InvalidArgumentError("a whole number of backups, at least 1");
  return n;
}

const BACKUP_HELP = `
Without FILE the backup goes to <dataDir>/backups/pps-edge-<UTC time>.db and that folder keeps the newest
--keep backups (older ones of that name are removed; other files there are left alone). FILE must not
exist. Works while the agent runs (one consistent snapshot) and while it does not; never changes the
database. Prints the file, its size and its SHA-256.`;

export function defineBackup(cli: Cli): Command {
  return new Command("backup")
    .description("copy the station database into a checked backup file, while the agent runs or not")
    .argument(
      "[file]",
      "the backup file to write (a new file); default: <dataDir>/backups/pps-edge-<UTC time>.db",
    )
    .option("--keep <n>", "without FILE: how many backups <dataDir>/backups keeps (default 5)", keepCount)
    .addHelpText("after", BACKUP_HELP)
    .action(async (file: string | undefined, opts: { keep?: number }, cmd: Command) => {
      if (file !== undefined && opts.keep !== undefined)
        throw new UsageError("--keep applies to the backups folder only: give FILE or --keep, not both");
      const { config } = loadCliConfig(cmd, cli.io);
      const dataDir = resolve(config.dataDir);
      const { DB_FILE } = await import("../../db/open.js");
      const backup = await import("../../db/backup.js");
      const keep = opts.keep ?? backup.DEFAULT_KEEP;
      const done = file
        ? { ...(await backup.backupDatabase(join(dataDir, DB_FILE), resolve(file))), pruned: [] }
        : await backup.backupIntoDataFolder(dataDir, { keep, now: new Date() });
      cli.io.out(`wrote ${done.path}: ${done.size} bytes, sha256 ${done.sha256}`);
      for (const old of done.pruned) cli.io.out(`removed ${old} (the folder keeps the newest ${keep})`);
    });
}

const RESTORE_HELP = `
Refused while an agent runs on the data folder (stop it first: systemctl stop pps-edge), and when FILE is
no station database, fails PRAGMA integrity_check or comes from a newer pps-edge: then nothing changes.
The database it replaces is kept as <dataDir>/backups/before-restore-<UTC time>.sqlite. A backup of an
older version is fine: the agent migrates it at its next start.`;

export function defineRestore(cli: Cli): Command {
  return new Command("restore")
    .description("put a backup in place of the station database (the agent must be stopped)")
    .argument("<file>", "the backup to restore (a pps-edge backup, or any copy of a station database)")
    .addHelpText("after", RESTORE_HELP)
    .action(async (file: string, _opts, cmd: Command) => {
      const { config } = loadCliConfig(cmd, cli.io);
      const { restoreDatabase } = await import("../../db/restore.js");
      const r = await restoreDatabase(resolve(config.dataDir), resolve(file), new Date());
      const { restored, shipped } = r.migrations;
      const schema =
        restored < shipped
          ? `an older schema (${restored} of ${shipped} migrations): the agent migrates it at its next start`
          : `the current schema (${shipped} migrations)`;
      cli.io.out(`restored ${resolve(file)} into ${r.database}, ${schema}`);
      if (r.keptAside) cli.io.out(`the database it replaced is kept as ${r.keptAside}`);
      if (typeof r.continuesAfter === "number")
        cli.io.out(
          `notifications continue after seq ${r.continuesAfter}, the replaced database's last: no notification_id is given twice`,
        );
      if (r.continuesAfter === null)
        cli.io.err(
          "pps-edge: warning: the replaced database could not be read, so new notifications may reuse ids central saw before the restore",
        );
      cli.io.out("start the agent again (systemctl start pps-edge)");
    });
}
