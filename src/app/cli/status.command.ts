/**
 * `pps-edge status`: the station at a glance for its maintainer, what GET /readyz and GET /station/state
 * say (services/status/station-status.ts; `request/health_check` answers the same). Read-only, with no
 * credentials beyond reading the data folder. Exit 0 when the running agent is ready;
 * 1 when it is not ready or not running, saying which on standard error.
 */
import { readFileSync } from "node:fs";
import { request as httpGet } from "node:http";
import { request as httpsGet } from "node:https";
import { join, resolve } from "node:path";
import { Command } from "commander";
import type { Config } from "../../config/config.schema.js";
import type { Readiness, StationStatus } from "../../services/status/station-status.js";
import { VERSION } from "../../version.js";
import { type Cli, EXIT, loadCliConfig } from "./context.js";
import { readUpgradeRollback, upgradeRollbackLine } from "./upgrade-rollback.js";

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
      const { statusText } = await import("../../services/status/station-status.js");
      const status = await readStatus(config);
      // an upgrade the guard rolled back (docs/operations.md#self-healing-upgrade), first
      const rollback = readUpgradeRollback(resolve(config.dataDir));
      if (opts.json) cli.io.out(JSON.stringify(rollback ? { ...status, upgradeRollback: rollback } : status));
      else {
        if (rollback) cli.io.out(upgradeRollbackLine(rollback));
        for (const l of statusText(status)) cli.io.out(l);
      }
      if (!status.ready) {
        cli.io.err(`pps-edge: ${status.problem}`);
        cli.code = EXIT.failure;
      }
    });
}

// What the command reads: whether an agent holds the data folder (its lock, db/agent-lock.ts); what
// the running agent's GET /readyz says about what lives only in it (devices, the broker link, storage),
// at the address of the config; and the rest from the database, read-only. No credentials: /readyz is
// open, and the database needs only read access to the data folder.

/** How long the running agent has to answer /readyz. */
const READYZ_TIMEOUT_MS = 3000;

/** Where the agent listens, as seen from this machine: a wildcard address is reached on loopback. */
function readyzUrl(http: Config["http"]): string {
  const host = http.host === "0.0.0.0" ? "127.0.0.1" : http.host === "::" ? "::1" : http.host;
  const scheme = http.tls.certFile ? "https" : "http";
  return `${scheme}://${host.includes(":") ? `[${host}]` : host}:${http.port}/readyz`;
}

/**
 * The running agent's /readyz, or why it could not be read. Over HTTPS the configured certificate is
 * the one trusted, whatever name it carries: the agent on this box presents it, and nothing secret is sent.
 */
export function readReadyz(http: Config["http"]): Promise<Readiness | string> {
  const url = readyzUrl(http);
  const tls = http.tls.certFile
    ? { ca: readFileSync(http.tls.certFile), checkServerIdentity: () => undefined }
    : undefined;
  return new Promise((ok) => {
    const get = tls ? httpsGet : httpGet;
    const req = get(url, { timeout: READYZ_TIMEOUT_MS, ...tls }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        try {
          ok(JSON.parse(Buffer.concat(chunks).toString("utf8")) as Readiness);
        } catch {
          ok(`${url} answered ${res.statusCode} without a readiness report`);
        }
      });
    });
    req.on("timeout", () => req.destroy(new Error(`no answer within ${READYZ_TIMEOUT_MS / 1000} s`)));
    req.on("error", (err) => ok(`${url}: ${err.message}`));
    req.end();
  });
}

export async function readStatus(config: Config): Promise<StationStatus> {
  // the database and the services load only when the command runs: the rest of the CLI starts faster
  const [
    { default: pino },
    { agentHolding },
    { DB_FILE },
    { openReadOnly },
    { createServices },
    { stationStatus },
  ] = await Promise.all([
    import("pino"),
    import("../../db/agent-lock.js"),
    import("../../db/open.js"),
    import("../../db/open-read-only.js"),
    import("../../services/services.js"),
    import("../../services/status/station-status.js"),
  ]);
  const dir = resolve(config.dataDir);
  const path = join(dir, DB_FILE);
  const handle = openReadOnly(path, config.db.busyTimeoutMs);
  if (!handle) throw new Error(`no database at ${path}: no station has run with this data folder`);
  try {
    const held = agentHolding(dir);
    const readiness = held ? await readReadyz(config.http) : null;
    const svc = createServices({ handle, config, log: pino({ level: "silent" }), now: Date.now });
    const now = Date.now();
    return stationStatus({
      version: VERSION,
      agent: held ? { pid: held.holder?.pid ?? 0, since: held.holder?.since ?? "unknown" } : null,
      readiness,
      outbox: svc.repos.outbox,
      state: svc.station.state(now, config.site),
      now,
    });
  } finally {
    handle.close();
  }
}
