/**
 * `pps-edge status`: the station at a glance for its maintainer, what GET /readyz and GET /station/state
 * say (services/status/station-status.ts; `request/health_check` answers the same). Read-only, with no
 * credentials beyond reading the data folder (status.facts.ts). Exit 0 when the running agent is ready;
 * 1 when it is not ready or not running, saying which on standard error.
 */
import { Command } from "commander";
import { type Cli, EXIT, loadCliConfig } from "./context.js";

const HELP = `
Devices, the broker link and storage are what the running agent's GET /readyz says, at http.host and
http.port of the config (a wildcard host is reached on loopback); the outbox, seats and bins are read
from the database. --json prints the same as one object, as request/health_check answers it.`;

export function defineStatus(cli: Cli): Command {
  return new Command("status")
    .description("the station at a glance: agent, readiness, devices, broker, outbox, seats, bins with work")
    .option("--json", "one JSON object instead of text")
    .addHelpText("after", HELP)
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const { config } = loadCliConfig(cmd, cli.io);
      const { readStatus } = await import("./status.facts.js");
      const { statusText } = await import("../../services/status/station-status.js");
      const status = await readStatus(config);
      if (opts.json) cli.io.out(JSON.stringify(status));
      else for (const l of statusText(status)) cli.io.out(l);
      if (!status.ready) {
        cli.io.err(`pps-edge: ${status.problem}`);
        cli.code = EXIT.failure;
      }
    });
}
