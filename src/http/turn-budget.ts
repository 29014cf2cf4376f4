import type { MiddlewareHandler } from "hono";
import { clientAddress } from "./client-address.js";
import type { AppEnv } from "./context.js";

/**
 * Work spread over turns of the event loop. The agent is one process (docs/architecture.md#layers), so
 * a burst handled in one turn delays everything else due then, the station's serial devices first: a
 * scan needs two turns before the engine sees it, and a monitor's `/healthz` waits behind the burst.
 * Bounding each turn keeps scan → light fast while the API is busy
 * (docs/architecture.md#performance-targets: p99 under 20 ms under load) at the price of a little
 * queueing for the API.
 */
export interface TurnQueue {
  /**
   * Undefined when `weight` more may go in this turn (its room is left and nobody waits); otherwise a
   * promise that resolves in the turn it may go, in the order asked.
   */
  take(weight?: number): Promise<void> | undefined;
  /** Counts `weight` more against this turn: for a part whose size is known only once it is made. */
  charge(weight: number): void;
}

/** At most `limit` (by weight) goes in one turn; one taker goes in each turn however heavy. */
export function turnQueue(limit: number): TurnQueue {
  let spent = 0;
  let armed = false;
  const waiting: Array<{ weight: number; resume: () => void }> = [];

  function nextTurn(): void {
    spent = 0;
    for (let first = waiting[0]; first; first = waiting[0]) {
      if (spent > 0 && spent + first.weight > limit) break;
      waiting.shift();
      spent += first.weight;
      first.resume();
    }
    if (waiting.length) setImmediate(nextTurn);
    else armed = false;
  }

  return {
    take(weight = 1) {
      if (!armed) {
        armed = true;
        setImmediate(nextTurn);
      }
      if (waiting.length === 0 && (spent === 0 || spent + weight <= limit)) {
        spent += weight;
        return undefined;
      }
      return new Promise<void>((resume) => waiting.push({ weight, resume }));
    },
    charge(weight) {
      if (weight > 0) spent += weight;
    },
  };
}

/**
 * At most `limit` start in one turn, taken in turns by key: one of each key's line, the keys in the
 * order they came, the rest for the next turn. A host whose burst queues a thousand requests waits
 * behind itself, not in front of a host asking one.
 */
export function fairTurnQueue(limit: number): { take(key: string): Promise<void> | undefined } {
  let started = 0;
  let armed = false;
  // a Map keeps insertion order: the key served goes to the back
  const lines = new Map<string, Array<() => void>>();

  function nextTurn(): void {
    started = 0;
    while (started < limit) {
      const front = lines.entries().next();
      if (front.done) break;
      const [key, line] = front.value;
      lines.delete(key);
      const resume = line.shift();
      if (line.length) lines.set(key, line);
      started++;
      resume?.();
    }
    if (lines.size) setImmediate(nextTurn);
    else armed = false;
  }

  return {
    take(key) {
      if (!armed) {
        armed = true;
        setImmediate(nextTurn);
      }
      if (lines.size === 0 && started < limit) {
        started++;
        return undefined;
      }
      return new Promise<void>((resume) => {
        const line = lines.get(key);
        if (line) line.push(resume);
        else lines.set(key, [resume]);
      });
    },
  };
}

/**
 * At most `limit` request handlers start in one turn, the rest wait for the next, one of each client
 * address's in turn (`fairTurnQueue`). The changes of a burst still share one commit: the group commit
 * keeps collecting while each turn brings more (services/unit-of-work/group-commit.ts).
 *
 * @example app.use("*", perTurn(4));
 */
export function perTurn(limit: number): MiddlewareHandler<AppEnv> {
  const handlers = fairTurnQueue(limit);
  return async function spreadOverTurns(c, next) {
    const wait = handlers.take(clientAddress(c) ?? "");
    if (wait) await wait;
    await next();
  };
}

/**
 * Bytes of large answers' parts (slices of a cached document, items of a search answer) made and
 * handed to the kernel in one turn, every answer together. A socket whose client has not read yet
 * takes megabytes into its kernel buffer at once; a few hundred connections opened together and
 * asking for large answers would otherwise fill theirs in one turn (docs/limits.md#slow-readers).
 * A 64 KiB write costs tens of microseconds.
 */
export const ANSWER_BYTES_PER_TURN = 256 * 1024;

/** The turns large answers' parts go in (http/sliced-body.ts, http/json-array-stream.ts). */
export const answerParts: TurnQueue = turnQueue(ANSWER_BYTES_PER_TURN);
