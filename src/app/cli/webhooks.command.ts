/**
 * `pps-edge webhooks …`: the webhook endpoints (docs/webhooks.md), over the station database like the
 * `user` commands, through the same door as the admin API (services/webhooks/webhooks.service.ts), so
 * both refuse the same things with the same codes. Beside a running agent too: each change bumps the
 * endpoint's revision, and the agent restarts that endpoint's delivery within a second.
 */
import { Command } from "commander";
import { isAppError } from "../../domain/errors.js";
import type { Webhooks, WebhookView } from "../../services/webhooks/webhooks.service.js";
import { type Cli, loadCliConfig, UsageError } from "./context.js";

const HELP = `
Each line: id, state, URL, types, delivered up to seq, lag, last status (docs/webhooks.md#observability).
The config file's endpoints are listed too; their URL, types and secret are changed in the file.`;

/** One endpoint on one line; the secret never. */
function line(w: WebhookView, lagSeconds: number): string {
  const state = w.enabled ? "enabled" : `DISABLED (${w.disabledReason ?? "?"})`;
  const failing = w.attempts > 0 ? ` failing: ${w.attempts} attempts, ${w.lastError ?? w.lastStatus}` : "";
  return [
    w.id,
    state,
    w.url,
    w.types?.join(",") ?? "all types",
    `delivered to seq ${w.deliveredSeq}`,
    `lag ${lagSeconds} s`,
    `last status ${w.lastStatus ?? "-"}${failing}`,
  ].join("\t");
}

/** A whole number from 1, else a usage error naming the argument. */
function seqOf(text: string, name: string): number {
  const n = Number(text);
  if (!/^[0-9]+$/.test(text) || !Number.isSafeInteger(n) || n < 1)
    throw new UsageError(`${name} '${text}' is not a sequence number (a whole number from 1)`);
  return n;
}

const typesOf = (text: string | undefined): string[] | undefined =>
  text === undefined ? undefined : text.split(",").map((s) => s.trim());

interface Door {
  hooks: Webhooks;
  lag(w: WebhookView): number;
}

/** Runs `use` over the station database; an error of the door becomes one line naming its field. */
async function withWebhooks(cmd: Command, cli: Cli, use: (d: Door) => void): Promise<void> {
  const loaded = loadCliConfig(cmd, cli.io);
  const { config } = loaded;
  const [{ withDatabase }, { createWebhooksRepo }, { createOutboxRepo }, security, service] =
    await Promise.all([
      import("./database.js"),
      import("../../db/webhooks.repo.js"),
      import("../../db/outbox.repo.js"),
      Promise.all([
        import("../../db/security-events.repo.js"),
        import("../../services/auth/auth.service.js"),
      ]),
      import("../../services/webhooks/webhooks.service.js"),
    ]);
  await withDatabase(loaded, false, (handle) => {
    const { sqlite } = handle;
    const outbox = createOutboxRepo(sqlite, { site: config.site, ppsId: config.ppsId });
    const log = security[1].createSecurityLog({
      repo: security[0].createSecurityEventsRepo(sqlite),
      now: Date.now,
    });
    const hooks = service.createWebhooks({
      repo: createWebhooksRepo(sqlite),
      outbox,
      transaction: (fn) => sqlite.transaction(fn).immediate(),
      rules: { allow: config.webhooks.allow, selfPort: config.http.port },
      now: Date.now,
      record: log.record,
    });
    const lag = (w: WebhookView) => {
      const oldest = outbox.oldestForWebhook(
        w.deliveredSeq,
        w.types === null ? null : JSON.stringify(w.types),
      );
      return oldest === undefined ? 0 : Math.max(0, Math.round((Date.now() - oldest) / 1000));
    };
    try {
      use({ hooks, lag });
    } catch (e) {
      if (!isAppError(e)) throw e;
      const field = e.errors[0]?.path;
      throw new Error(`${e.code}: ${e.message}${field && !e.message.startsWith(field) ? ` (${field})` : ""}`);
    }
  });
}

const CLI = { channel: "cli" as const };

export function defineWebhooks(cli: Cli): Command {
  const { io } = cli;
  const show = (d: Door, w: WebhookView) => io.out(line(w, d.lag(w)));
  const webhooks = new Command("webhooks")
    .description("the webhook endpoints: list, add, change, remove, enable, disable, replay a range")
    .option("--json", "one JSON object per line instead of text")
    .addHelpText("after", HELP)
    .action((opts: { json?: boolean }, cmd: Command) =>
      withWebhooks(cmd, cli, (d) => {
        const all = d.hooks.list();
        if (all.length === 0 && !opts.json) io.out("no webhook endpoints");
        for (const w of all) {
          if (opts.json) io.out(JSON.stringify({ ...w, lagSeconds: d.lag(w) }));
          else show(d, w);
        }
      }),
    );
  webhooks
    .command("add")
    .description("add an endpoint: it gets every notification committed from now on")
    .argument("<id>", "its name: letters, digits, '-' or '_' (1-32)")
    .argument("<url>", "where notifications are POSTed (https://)")
    .option("--types <list>", "only these notification types, comma-separated (default: all)")
    .option("--secret <whsec>", "the signing secret (default: a new one, printed once)")
    .option("--disabled", "add it disabled")
    .action(
      (id: string, url: string, o: { types?: string; secret?: string; disabled?: boolean }, cmd: Command) =>
        withWebhooks(cmd, cli, (d) => {
          const input = { id, url, types: typesOf(o.types), secret: o.secret, enabled: o.disabled !== true };
          const done = d.hooks.create(JSON.parse(JSON.stringify(input)), CLI);
          show(d, done.endpoint);
          if (done.secret) io.out(`secret (shown once; give it to the receiver): ${done.secret}`);
        }),
    );
  webhooks
    .command("set")
    .description("change an endpoint's URL, types or secret; its cursor stays")
    .argument("<id>", "the endpoint")
    .option("--url <url>", "a new URL")
    .option("--types <list>", "only these notification types, comma-separated")
    .option("--all-types", "every notification type again")
    .option("--secret <whsec>", "a new signing secret")
    .action(
      (id: string, o: { url?: string; types?: string; allTypes?: boolean; secret?: string }, cmd: Command) =>
        withWebhooks(cmd, cli, (d) => {
          const input = { url: o.url, types: o.allTypes ? null : typesOf(o.types), secret: o.secret };
          show(d, d.hooks.update(id, JSON.parse(JSON.stringify(input)), CLI));
        }),
    );
  for (const [name, text] of [
    ["enable", "enable a disabled endpoint: it goes on from its cursor, nothing skipped"],
    ["disable", "disable an endpoint: nothing more is sent; its cursor is kept"],
  ] as const)
    webhooks
      .command(name)
      .description(text)
      .argument("<id>", "the endpoint")
      .action((id: string, _o: unknown, cmd: Command) =>
        withWebhooks(cmd, cli, (d) => show(d, d.hooks[name](id, CLI))),
      );
  webhooks
    .command("remove")
    .description("remove an endpoint and its cursor")
    .argument("<id>", "the endpoint")
    .action((id: string, _o: unknown, cmd: Command) =>
      withWebhooks(cmd, cli, (d) => {
        d.hooks.remove(id, CLI);
        io.out(`removed webhook endpoint ${id}`);
      }),
    );
  webhooks
    .command("replay")
    .description("send seq FROM..TO again to an endpoint, in order, before it goes on")
    .argument("<id>", "the endpoint")
    .argument("<from>", "the first seq")
    .argument("<to>", "the last seq (inclusive)")
    .action((id: string, from: string, to: string, _o: unknown, cmd: Command) => {
      const range = { from: seqOf(from, "FROM"), to: seqOf(to, "TO") };
      return withWebhooks(cmd, cli, (d) => {
        const w = d.hooks.replay(id, range, CLI);
        io.out(
          w.replay
            ? `replaying seq ${w.replay.next}..${w.replay.to} to ${id} (a running agent starts within a second)`
            : `nothing to replay: ${id} has not been sent seq ${range.from} yet; it gets it in order anyway`,
        );
      });
    });
  return webhooks;
}
