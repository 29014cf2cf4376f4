import type { Logger } from "pino";
import type { EventBus } from "../../events.js";

const OWNER = "audit-conflicts";

/**
 * Moves audits out of waiting_on_conflict once no pick or put holds their locations (spec audit table:
 * "waiting_on_conflict → conflict resolved → queued"). Picks and puts announce every change on the bus
 * (`request`); each announcement re-checks the waiting audits. `start()` also re-checks once, for
 * conflicts that ended while the agent was stopped.
 */
export function createAuditConflictWatcher(deps: {
  bus: EventBus;
  /** Moves the audits that are free now; returns how many. */
  resolveConflicts: () => number;
  log: Logger;
}) {
  let pending: NodeJS.Immediate | undefined;

  /** A burst of request changes (creates under load) costs one re-check, just after it. */
  function soon(): void {
    if (pending) return;
    pending = setImmediate(() => {
      pending = undefined;
      recheck();
    });
  }

  function recheck(): void {
    try {
      const moved = deps.resolveConflicts();
      if (moved) deps.log.info({ moved }, "audits released from waiting_on_conflict");
    } catch (err) {
      deps.log.error({ err }, "audit conflict re-check failed");
    }
  }

  return {
    start(): void {
      deps.bus.on(OWNER, "request", soon);
      recheck();
    },
    stop(): void {
      deps.bus.off(OWNER);
      if (pending) clearImmediate(pending);
      pending = undefined;
    },
  };
}

export type AuditConflictWatcher = ReturnType<typeof createAuditConflictWatcher>;
