/**
 * `pps-edge outbox` and `pps-edge outbox replay [SEQ…]`: the dead letters (docs/mqtt.md#dead-letters),
 * listed, and sent again in seq order (services/notifications/dead-letters.service.ts). Over the
 * station database like the `user` commands, beside a running agent too: then the agent carries the
 * replay out (within a second), since only it can move its publisher back; with the agent stopped, the
 * command does it under the data folder's lock, and the agent sends them when it next connects.
 */
import { resolve } from "node:path";
import { Command } from "commander";
import type { DatabaseHandle } from "../../db/open.js";
import type { DeadLetter, DeadLetters } from "../../services/notifications/dead-letters.service.js";
import { type Cli, type LoadedConfig, loadCliConfig, UsageError } from "./context.js";

/** One dead letter on one line: seq, type, notification_id, reason (and PUBACK code), when. */
function line(d: DeadLetter): string {
  const reason = d.reasonCode === null ? d.reason : `${d.reason} (${d.reasonCode})`;
  return [d.seq, d.type, d.notificationId, reason, d.deadAt].join("\t");
}

/** SEQ arguments: positive integers, else a usage error naming the bad one. */
function seqsOf(args: string[]): number[] {
  return args.map((a) => {
    const n = Number(a);
    if (!/^[0-9]+$/.test(a) || !Number.isSafeInteger(n) || n < 1)
      throw new UsageError(`SEQ '${a}' is not a sequence number (a whole number from 1)`);
    return n;
  });
}

const REPLAY_HELP = `
Dead letters go out again under their own seq and notification_id, in seq order, ahead of every
notification still waiting; notifications delivered after them are not sent again (docs/mqtt.md).
Beside a running agent, the agent takes the replay within a second; this waits up to 10 s for it.`;

export function defineOutbox(cli: Cli): Command {
  const { io } = cli;
  const outbox = new Command("outbox")
    .description("the dead letters: notifications the broker refused for good (seq, type, id, reason, when)")
    .option("--json", "one JSON object per line instead of text")
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      await withDeadLetters(loadCliConfig(cmd, io), ({ dead }) => {
        const list = dead.list();
        if (list.length === 0 && !opts.json) io.out("no dead letters");
        for (const d of list) io.out(opts.json ? JSON.stringify(d) : line(d));
        const more = dead.count() - list.length;
        if (more > 0) io.err(`pps-edge: ${more} more not listed`);
      });
    });
  outbox
    .command("replay")
    .description("send dead letters again, in seq order (none named: all)")
    .argument("[seq...]", "the seq of each dead letter to send again")
    .addHelpText("after", REPLAY_HELP)
    .action(async (args: string[], _opts: unknown, cmd: Command) => {
      const seqs = seqsOf(args);
      const done = await replayDeadLetters(loadCliConfig(cmd, io), seqs);
      if (done.replayed.length === 0) {
        io.out("no dead letters: nothing to replay");
        return;
      }
      io.out(`replayed ${done.replayed.length} dead letters (seq ${done.replayed.join(", ")}): ${done.by}`);
    });
  return outbox;
}

/** How long `outbox replay` waits for a running agent to take the replay. */
export const TAKE_TIMEOUT_MS = 10_000;
const TAKE_POLL_MS = 100;

/** The dead letters over an open database; the database code loads only when a command runs. */
async function deadLettersOf(handle: DatabaseHandle, { config }: LoadedConfig): Promise<DeadLetters> {
  const [{ default: pino }, { createOutboxRepo }, { createDeadLetters }] = await Promise.all([
    import("pino"),
    import("../../db/outbox.repo.js"),
    import("../../services/notifications/dead-letters.service.js"),
  ]);
  const { sqlite } = handle;
  return createDeadLetters({
    outbox: createOutboxRepo(sqlite, { site: config.site, ppsId: config.ppsId }),
    transaction: (fn) => sqlite.transaction(fn).immediate(),
    now: Date.now,
    log: pino({ level: "silent" }),
  });
}

export async function withDeadLetters(
  loaded: LoadedConfig,
  use: (d: { dead: DeadLetters; handle: DatabaseHandle }) => Promise<void> | void,
): Promise<void> {
  const { withDatabase } = await import("./database.js");
  await withDatabase(loaded, false, async (handle) =>
    use({ dead: await deadLettersOf(handle, loaded), handle }),
  );
}

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/** Waits for the running agent to take the request; withdraws it after the timeout. */
async function taken(dead: DeadLetters, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (!dead.requested()) return true;
    await sleep(TAKE_POLL_MS);
  }
  return !dead.withdraw();
}

/**
 * Replays the dead letters `seqs` (none: all). With the agent stopped, here and now under the data
 * folder's lock (so no agent starts meanwhile); beside a running agent, by asking it.
 */
export async function replayDeadLetters(
  loaded: LoadedConfig,
  seqs: number[],
  timeoutMs = TAKE_TIMEOUT_MS,
): Promise<{ replayed: number[]; by: string }> {
  let result: { replayed: number[]; by: string } = { replayed: [], by: "" };
  const { lockDataFolder } = await import("../../db/agent-lock.js");
  await withDeadLetters(loaded, async ({ dead }) => {
    const held = lockDataFolder(resolve(loaded.config.dataDir), new Date().toISOString());
    if ("lock" in held) {
      try {
        const { replayed } = dead.replay(seqs);
        result = { replayed, by: "the agent is not running; it sends them when it next connects" };
      } finally {
        held.lock.release();
      }
      return;
    }
    const pid = held.heldBy ? `pid ${held.heldBy.pid}` : "pid unknown";
    const replayed = dead.request(seqs);
    if (replayed.length === 0) return;
    if (!(await taken(dead, timeoutMs)))
      throw new Error(
        `the running agent (${pid}) did not take the replay within ${timeoutMs / 1000} s; nothing was replayed`,
      );
    result = { replayed, by: `the running agent (${pid}) sends them now, ahead of anything waiting` };
  });
  return result;
}
