/**
 * The dead letters over the station database, as the `outbox` commands reach them (outbox.command.ts).
 * Loaded only when such a command runs.
 */
import { resolve } from "node:path";
import pino from "pino";
import { lockDataFolder } from "../../db/agent-lock.js";
import type { DatabaseHandle } from "../../db/open.js";
import { createOutboxRepo } from "../../db/outbox.repo.js";
import { createDeadLetters, type DeadLetters } from "../../services/notifications/dead-letters.service.js";
import type { LoadedConfig } from "./context.js";
import { withDatabase } from "./user.database.js";

/** How long `outbox replay` waits for a running agent to take the replay. */
export const TAKE_TIMEOUT_MS = 10_000;
const TAKE_POLL_MS = 100;

function deadLettersOf(handle: DatabaseHandle, { config }: LoadedConfig): DeadLetters {
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
  await withDatabase(loaded, false, (handle) => use({ dead: deadLettersOf(handle, loaded), handle }));
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
