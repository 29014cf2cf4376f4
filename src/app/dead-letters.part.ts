/**
 * Dead letters replayed from the command line while the agent runs (`pps-edge outbox replay`): another
 * process cannot reach the publisher, so it leaves a request in the database, and this part carries it
 * out within a second (services/notifications/dead-letters.service.ts). One settings row read a second.
 */
import type { Logger } from "pino";
import type { DeadLetters } from "../services/notifications/dead-letters.service.js";
import type { Part } from "./lifecycle.js";

export const REPLAY_CHECK_MS = 1000;

export function deadLettersPart(dead: Pick<DeadLetters, "takeRequested">, log: Logger): Part {
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    try {
      dead.takeRequested();
    } catch (err) {
      // a locked or failing database: the request stays, the next tick tries again
      log.warn({ err }, "outbox: a requested replay of dead letters failed");
    }
  };
  return {
    name: "dead letter replays",
    start() {
      tick();
      timer = setInterval(tick, REPLAY_CHECK_MS);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
