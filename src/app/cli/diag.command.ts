/**
 * `pps-edge diag FILE`: one tar.gz for a support ticket (diag.report.ts says what is in it, and
 * diag.archive.ts how it is written). Read-only: it works on a stopped station, beside a running agent
 * and on a damaged database; whatever cannot be had is written down with the reason instead.
 */
import { existsSync, renameSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { Command } from "commander";
import { type Cli, loadCliConfig } from "./context.js";

const DIAG_HELP = `
The archive holds one folder of text files: versions.txt (pps-edge, package, node, sqlite, OS),
config.yaml (the configuration in effect, secrets redacted), devices.txt (the station's devices and
their firmware profiles), readyz.txt (the running agent's /readyz: device health, outbox, broker; or
that it is not running), database.txt (outbox and dead-letter counts, PRAGMA integrity_check) and
journal.txt (the last 500 lines of journalctl -u pps-edge, where there is a journal). Run it as root
(sudo pps-edge diag /tmp/diag.tar.gz): it reads the data folder and the journal, which the service's
user sees only in the systemd-journal group.`;

export function defineDiag(cli: Cli): Command {
  return new Command("diag")
    .description(
      "write one archive (tar.gz) of what support needs: config without secrets, versions, health, logs",
    )
    .argument("<file>", "the archive to write, e.g. /tmp/pps-edge-diag.tar.gz (a new file)")
    .addHelpText("after", DIAG_HELP)
    .action(async (file: string, _opts, cmd: Command) => {
      const { config } = loadCliConfig(cmd, cli.io);
      const target = resolve(file);
      if (existsSync(target)) throw new Error(`${target} exists: name a new file`);
      if (!existsSync(dirname(target)))
        throw new Error(`cannot write ${target}: the folder ${dirname(target)} does not exist`);
      const { diagnosis } = await import("./diag.report.js");
      const { tarGz } = await import("./diag.archive.js");
      const { fileStamp } = await import("../../db/backup.js");
      const now = new Date();
      const files = await diagnosis(config, `pps-edge-diag-${fileStamp(now)}`);
      const partial = `${target}.partial`;
      try {
        writeFileSync(partial, tarGz(files, now.getTime()));
        renameSync(partial, target);
      } catch (e) {
        throw new Error(`cannot write ${target}: ${e instanceof Error ? e.message : String(e)}`);
      }
      cli.io.out(`wrote ${target}:`);
      for (const f of files)
        cli.io.out(`  ${f.name} (${Buffer.byteLength(f.text)} bytes): ${f.text.split("\n")[0]}`);
    });
}
