import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context.js";

/**
 * Spreads request handling over turns of the event loop: at most `perTurn` handlers start in one turn,
 * the rest wait for the next. The agent is one process (docs/architecture.md#layers), so a burst of HTTP requests
 * handled in one turn delays everything else due then, the station's serial devices first: a scan
 * needs two turns before the engine sees it. Bounding the turn keeps scan → light fast while the API
 * is busy (docs/architecture.md#performance-targets: p99 under 20 ms under load) at the price of a little queueing for the API.
 * The changes of a burst still share one commit: the group commit keeps collecting while each turn
 * brings more (services/unit-of-work/group-commit.ts).
 *
 * @example app.use("*", perTurn(4));
 */
export function perTurn(limit: number): MiddlewareHandler<AppEnv> {
  let started = 0;
  let armed = false;
  const waiting: Array<() => void> = [];

  function nextTurn(): void {
    started = 0;
    while (started < limit && waiting.length) {
      started++;
      waiting.shift()?.();
    }
    if (waiting.length) setImmediate(nextTurn);
    else armed = false;
  }

  return async function spreadOverTurns(_c, next) {
    if (!armed) {
      armed = true;
      setImmediate(nextTurn);
    }
    if (started < limit && waiting.length === 0) started++;
    else await new Promise<void>((resume) => waiting.push(resume));
    await next();
  };
}
