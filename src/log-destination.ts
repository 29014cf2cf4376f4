/**
 * Where the log lines go when standard output is not a terminal: pino's asynchronous destination
 * (sonic-boom, `sync: false`) over a bounded buffer, so that a log nobody reads never holds the event
 * loop nor a stop (docs/operations.md#when-nobody-reads-the-log). Lines past the buffer are dropped and
 * counted; once the output drains again, one line says how many were lost.
 */
import pino, { type DestinationStream } from "pino";

/** Bytes of log lines held while the output does not take them (docs/limits.md#logging). */
export const LOG_BUFFER_BYTES = 1024 * 1024;

/** How long the last lines are retried at exit before they are given up (docs/limits.md#logging). */
export const LOG_EXIT_FLUSH_MS = 1000;

export interface BoundedLogOutput {
  stream: DestinationStream;
  /** Lines dropped since the start. */
  dropped(): number;
  /** Calls `each` for every dropped line from now on. */
  onDrop(each: () => void): void;
  /** Calls `report(n)` when the output took all it was given again after `n` lines were dropped. */
  onDrained(report: (n: number) => void): void;
}

const isAgain = (e: unknown) => ["EAGAIN", "EBUSY"].includes((e as { code?: string }).code ?? "");

/**
 * The bounded destination on standard output (fd 1). Opening `process.stdout` on a pipe or socket
 * makes the descriptor non-blocking (Node opens it as a libuv pipe), so a write the reader does not
 * take fails with EAGAIN and is retried by sonic-boom on a timer, instead of blocking a thread: a
 * blocked write cannot be interrupted, and Node's exit waits for its thread pool.
 */
export function boundedStdout(maxBytes = LOG_BUFFER_BYTES): BoundedLogOutput {
  void process.stdout;
  let exitBy = 0;
  let dropped = 0;
  let unreported = 0;
  const dropListeners: Array<() => void> = [];
  const stream = pino.destination({
    dest: 1,
    sync: false,
    maxLength: maxBytes,
    // while running, retry for ever (the buffer is bounded); at exit, for LOG_EXIT_FLUSH_MS at most
    retryEAGAIN: () => exitBy === 0 || Date.now() < exitBy,
  });
  stream.on("drop", () => {
    dropped++;
    unreported++;
    for (const each of dropListeners) each();
  });
  // pino flushes this destination synchronously at exit (its on-exit hook): bounded in time, and what
  // the reader did not take by then is given up rather than held for ever
  const flushSync = stream.flushSync.bind(stream);
  stream.flushSync = () => {
    exitBy = Date.now() + LOG_EXIT_FLUSH_MS;
    try {
      flushSync();
    } catch (e) {
      if (!isAgain(e)) throw e;
    }
  };
  return {
    stream,
    dropped: () => dropped,
    onDrop: (each) => dropListeners.push(each),
    onDrained(report) {
      stream.on("drain", () => {
        if (unreported === 0) return;
        const n = unreported;
        unreported = 0;
        report(n);
      });
    },
  };
}
