/**
 * The answer budget on the costly routes (docs/limits.md#slow-readers): answers built and not yet
 * taken by their clients are held to `http.answerBufferBytes` on all connections together
 * (connection-watch.ts). Past it a costly request from an address that holds some of them is refused
 * `503 answers_backlog` with `Retry-After` before its answer is built; an address that holds none (a
 * client that reads what it is sent) is served whatever the others hold.
 */
import type { IncomingMessage } from "node:http";
import type { MiddlewareHandler } from "hono";
import { AppError } from "../domain/errors.js";
import type { Metrics } from "../metrics.js";
import { watchOf } from "./connection-watch.js";
import type { AppEnv } from "./context.js";

/** Within a second the watch has cut the connections that stopped reading (`STALL_MS` and a tick). */
const RETRY_AFTER_SECONDS = 1;

export function answersBacklog(): AppError {
  return new AppError(
    "answers_backlog",
    "the station holds as many unread answers as it may, some of them for this address",
    [
      {
        path: "(answers)",
        message: "answers not yet read by their clients: at most http.answerBufferBytes on all connections",
      },
    ],
    { retryAfterSeconds: RETRY_AFTER_SECONDS, limit: "http.answerBufferBytes" },
  );
}

export function holdToAnswerBudget(metrics: Metrics): MiddlewareHandler<AppEnv> {
  const refusals = metrics.refusals();
  return async function answerBudget(c, next) {
    const socket = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket;
    if (!(watchOf(socket)?.admitsCostly(socket) ?? true)) {
      refusals.inc({ reason: "http_answer_bytes" });
      throw answersBacklog();
    }
    await next();
  };
}
