/**
 * `pps-edge security-events`: the station's security event log (docs/security.md#security-event-log) on the
 * box, newest first: logins, failures, lockouts, user changes, token revocations, role refusals. It
 * reads the station database like the `user` commands (database.ts), beside a running agent too.
 */
import { Command, Option } from "commander";
import { printable, printableJson } from "../../domain/printable.js";
import {
  SECURITY_EVENT_KINDS,
  type SecurityEvent,
  securityEventQuerySchema,
  toSecurityEventQuery,
} from "../../domain/security-event.js";
import { type Cli, loadCliConfig, UsageError } from "./context.js";

/**
 * One event on one line: time, kind, channel, user name, address, then the facts as JSON. What a client
 * sent (a user name, an address) is printed with its control characters escaped (domain/printable.ts):
 * a failed login's name must not clear the admin's screen or forge a line.
 */
function line(e: SecurityEvent): string {
  const detail = e.detail === null ? "" : printable(JSON.stringify(e.detail));
  return [
    new Date(e.at).toISOString(),
    e.kind,
    printable(e.channel),
    printable(e.username ?? "-"),
    printable(e.address ?? "-"),
    detail,
  ]
    .join("\t")
    .trimEnd();
}

interface Options {
  since?: string;
  until?: string;
  kind?: string;
  user?: string;
  limit?: string;
  beforeId?: string;
  json?: boolean;
}

/** The options as the HTTP route's query, checked by the same schema; a bad one is a usage error. */
function query(opts: Options) {
  const parsed = securityEventQuerySchema.safeParse({
    since: opts.since,
    until: opts.until,
    kind: opts.kind,
    username: opts.user,
    limit: opts.limit,
    before_id: opts.beforeId,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? "")
      .replace("before_id", "before-id")
      .replace("username", "user");
    throw new UsageError(`--${name}: ${issue?.message ?? "invalid"}`);
  }
  return toSecurityEventQuery(parsed.data);
}

export function defineSecurityEvents(cli: Cli): Command {
  return new Command("security-events")
    .description("the security event log, newest first (logins, lockouts, user changes, revocations)")
    .option("--since <time>", "from this ISO 8601 time on, e.g. 2026-11-21T00:00:00Z")
    .option("--until <time>", "before this ISO 8601 time")
    .addOption(new Option("--kind <kind>", "only events of this kind").choices(SECURITY_EVENT_KINDS))
    .option("--user <name>", "only events of this user name")
    .option("--limit <n>", "at most this many events (1-1000)", "100")
    .option("--before-id <id>", "only events below this id (the next page)")
    .option("--json", "one JSON object per line instead of text")
    .action(async (opts: Options, cmd: Command) => {
      const q = query(opts);
      const loaded = loadCliConfig(cmd, cli.io);
      const { withDatabase } = await import("./database.js");
      const { createSecurityEventsRepo } = await import("../../db/security-events.repo.js");
      await withDatabase(loaded, false, (handle) => {
        for (const e of createSecurityEventsRepo(handle.sqlite).list(q)) {
          cli.io.out(
            opts.json ? printableJson(JSON.stringify({ ...e, at: new Date(e.at).toISOString() })) : line(e),
          );
        }
      });
    });
}
