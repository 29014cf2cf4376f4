/**
 * `pps-edge outbox` and `pps-edge outbox replay [SEQ…]`: the dead letters (docs/mqtt.md#dead-letters),
 * listed, and sent again in seq order (services/notifications/dead-letters.service.ts). Over the
 * station database like the `user` commands, beside a running agent too: then the agent carries the
 * replay out (within a second), since only it can move its publisher back; with the agent stopped, the
 * command does it under the data folder's lock, and the agent sends them when it next connects.
 */
import { Command } from "commander";
import type { DeadLetter } from "../../services/notifications/dead-letters.service.js";
import { type Cli, loadCliConfig, UsageError } from "./context.js";

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
      const { withDeadLetters } = await import("./outbox.database.js");
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
      const { replayDeadLetters } = await import("./outbox.database.js");
      const done = await replayDeadLetters(loadCliConfig(cmd, io), seqs);
      if (done.replayed.length === 0) {
        io.out("no dead letters: nothing to replay");
        return;
      }
      io.out(`replayed ${done.replayed.length} dead letters (seq ${done.replayed.join(", ")}): ${done.by}`);
    });
  return outbox;
}
