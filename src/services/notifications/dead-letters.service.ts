/**
 * Dead letters (docs/mqtt.md#dead-letters): notifications the broker refused for good, moved aside so
 * that they do not block the rest. Listing them and sending them again is this service alone; the
 * command line, the admin HTTP route and the MQTT request are thin shells over it.
 *
 * A replay puts the rows back into the outbox under their own seq and with their envelopes as committed
 * (the same `notification_id`, so a consumer that fetched them meanwhile dedupes them), and lowers the
 * delivery cursor below the lowest: they go out again in seq order, ahead of everything still waiting.
 * Inside the agent that is one transaction plus the publisher reading again from the cursor
 * (`Redelivery`). Another process (the command line beside a running agent) cannot reach the publisher:
 * it leaves a request in the database, which the agent carries out within a second (`takeRequested`).
 */
import type { Logger } from "pino";
import type { OutboxRepo } from "../../db/outbox.repo.js";
import { AppError } from "../../domain/errors.js";

export interface DeadLetter {
  seq: number;
  notificationId: string;
  type: string;
  /** Why it was moved aside (docs/mqtt.md#dead-letters): `too_large`, `retries_exhausted`, … */
  reason: string;
  /** The MQTT 5 PUBACK reason code, when the broker gave one. */
  reasonCode: number | null;
  /** When it was moved aside, ISO 8601 UTC. */
  deadAt: string;
}

/** The running publisher's side of a replay (sync/publisher.ts), present while the agent's sync runs. */
export interface Redelivery {
  /** Records every acknowledged notification as delivered, before the cursor moves back. */
  record(): void;
  /** Reads again from the delivery cursor, which the replay lowered. */
  rewind(): void;
}

export interface DeadLettersDeps {
  outbox: Pick<
    OutboxRepo,
    | "dead"
    | "deadCount"
    | "deadSeqs"
    | "has"
    | "revive"
    | "replayRequested"
    | "requestReplay"
    | "clearReplayRequest"
  >;
  /** One IMMEDIATE transaction: the agent's unit of work, or the command line's own. */
  transaction<T>(fn: () => T): T;
  now(): number;
  log: Pick<Logger, "info">;
}

/** The most a listing returns; a station with more has a broker problem to fix first. */
export const DEAD_LETTER_LIMIT = 1000;

export function createDeadLetters(deps: DeadLettersDeps) {
  const { outbox } = deps;
  let redelivery: Redelivery | undefined;

  /** The seqs to replay: all dead letters when none are named; an unknown one is refused, naming it. */
  function choose(seqs: readonly number[] | undefined): number[] {
    const dead = outbox.deadSeqs();
    if (!seqs || seqs.length === 0) return dead;
    const isDead = new Set(dead);
    const wanted = [...new Set(seqs)].sort((a, b) => a - b);
    const missing = wanted.filter((s) => !isDead.has(s));
    if (missing.length === 0) return wanted;
    const why = (s: number) =>
      outbox.has(s) ? "delivered or waiting, not a dead letter" : "no such notification";
    throw new AppError(
      "not_found",
      `no dead letter with seq ${missing.map((s) => `${s} (${why(s)})`).join(", ")}; nothing was replayed`,
      missing.map((s) => ({ path: `seqs.${s}`, message: why(s) })),
    );
  }

  /** Back into the queue in one transaction, then the publisher reads again from the lowered cursor. */
  function revive(pick: () => number[]): number[] {
    redelivery?.record();
    const replayed = deps.transaction(() => {
      const seqs = pick();
      outbox.revive(seqs, deps.now());
      return seqs;
    });
    if (replayed.length === 0) return replayed;
    redelivery?.rewind();
    deps.log.info({ seqs: replayed }, "outbox: dead letters put back to be sent again, in seq order");
    return replayed;
  }

  return {
    /** The dead letters in seq order, at most `limit`. */
    list(limit = DEAD_LETTER_LIMIT): DeadLetter[] {
      return outbox.dead(limit).map((r) => ({ ...r, deadAt: new Date(r.deadAt).toISOString() }));
    },
    count: (): number => outbox.deadCount(),
    /** Sends the named dead letters (none named: all) again, in seq order; in the agent, or with it stopped. */
    replay(seqs?: readonly number[]): { replayed: number[] } {
      return { replayed: revive(() => choose(seqs)) };
    },
    /**
     * Beside a running agent: checks the seqs and asks the agent to replay them (added to a request
     * it has not taken yet). Returns the seqs asked for.
     */
    request(seqs?: readonly number[]): number[] {
      return deps.transaction(() => {
        const chosen = choose(seqs);
        if (chosen.length === 0) return chosen;
        const earlier = outbox.replayRequested() ?? [];
        outbox.requestReplay([...new Set([...earlier, ...chosen])].sort((a, b) => a - b));
        return chosen;
      });
    },
    /** Whether a request is still waiting for the agent. */
    requested: (): boolean => outbox.replayRequested() !== undefined,
    /** Takes a waiting request back; false when the agent already took it. */
    withdraw: (): boolean => deps.transaction(() => outbox.clearReplayRequest()),
    /** The agent: carries out a request another process left, if any (those still dead). */
    takeRequested(): { replayed: number[] } | undefined {
      if (outbox.replayRequested() === undefined) return undefined;
      const replayed = revive(() => {
        const asked = new Set(outbox.replayRequested() ?? []);
        outbox.clearReplayRequest();
        return outbox.deadSeqs().filter((s) => asked.has(s));
      });
      return { replayed };
    },
    /** The running publisher, while the sync runs (undefined: stopped or off). */
    useRedelivery(r: Redelivery | undefined): void {
      redelivery = r;
    },
  };
}

export type DeadLetters = ReturnType<typeof createDeadLetters>;
