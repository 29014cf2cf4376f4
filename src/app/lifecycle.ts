/**
 * The agent's parts and their lifecycle (docs/architecture.md#the-composition-root). A part is one
 * piece of the running agent with `start` and `stop`: the device hub, a background job, the station
 * engine, the HTTP server, the MQTT sync. Parts start one by one in dependency order and stop in the
 * reverse order. A part that fails to start is logged and the others keep running (a station whose
 * printer is missing still picks), unless it is critical (the HTTP server: without it nobody can
 * reach the station), in which case what started is stopped again and the start fails.
 */
import type { Logger } from "pino";

export interface Part {
  readonly name: string;
  /** A critical part that fails to start fails the whole start. */
  readonly critical?: boolean;
  start(): void | Promise<void>;
  /** Must be safe after a failed start: it undoes whatever the start got done. */
  stop(): void | Promise<void>;
}

/** Stops parts in the reverse of the order given; a part that fails to stop does not hold up the rest. */
export async function stopParts(parts: readonly Part[], log: Logger): Promise<void> {
  for (const part of [...parts].reverse()) {
    try {
      await part.stop();
    } catch (err) {
      log.error({ err, part: part.name }, "could not stop");
    }
  }
}

/**
 * Starts parts in order. Returns the parts to stop later: every part whose start was tried, since a
 * non-critical part that failed may have left timers or retries behind that its `stop` ends.
 */
export async function startParts(parts: readonly Part[], log: Logger): Promise<Part[]> {
  const tried: Part[] = [];
  for (const part of parts) {
    tried.push(part);
    try {
      await part.start();
    } catch (err) {
      if (part.critical) {
        await stopParts(tried, log);
        throw err;
      }
      log.error({ err, part: part.name }, "could not start");
    }
  }
  return tried;
}
