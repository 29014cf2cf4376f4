/**
 * The agent's background jobs as parts: the audit conflict watcher, the report writer, the held-work
 * scheduler, put staging left over from before a restart, and the pruning of expired API tokens,
 * operator screen sessions, security events past retention (`security.*`) and inventory reports past
 * retention (`reports.*`).
 */
import { isStorage, sqliteCode } from "../services/unit-of-work/unit-of-work.js";
import { createWorkScheduler } from "../station/work-scheduler.js";
import type { Foundation } from "./foundation.js";
import type { Part } from "./lifecycle.js";

const TOKEN_PRUNE_MS = 10 * 60_000;

function tokenPruning(f: Foundation): Part {
  let timer: NodeJS.Timeout | undefined;
  return {
    name: "token pruning",
    start() {
      timer = setInterval(() => {
        try {
          f.svc.auth.pruneExpired();
          f.svc.screenSessions.pruneExpired();
          f.svc.securityLog.prune();
          void f.svc.reports.prune().catch((err: unknown) => f.log.error({ err }, "pruning reports failed"));
        } catch (err) {
          // a full or failing disk belongs to its episode (logged once); expired rows are pruned next time
          const code = sqliteCode(err);
          if (code !== undefined && isStorage(err)) f.svc.storage.failed(code, err);
          else f.log.error({ err }, "pruning expired tokens, screen sessions and security events failed");
        }
      }, TOKEN_PRUNE_MS);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}

export function backgroundParts(f: Foundation): Part[] {
  const { svc, now, log } = f;
  const scheduler = createWorkScheduler({
    bus: svc.bus,
    release: () => svc.operations.releaseHeldWork(),
    nextHeld: () => svc.workOrder.nextHeldRelease(now()),
    now,
    log,
  });
  return [
    {
      name: "audit conflicts",
      start: () => svc.auditConflicts.start(),
      stop: () => svc.auditConflicts.stop(),
    },
    { name: "reports", start: () => svc.reports.start(), stop: () => svc.reports.stop() },
    { name: "work scheduler", start: () => scheduler.start(), stop: () => scheduler.stop() },
    // puts left in stage_requested by a crash are evaluated now; stop ends the operations' timers
    { name: "staging", start: () => svc.operations.kickStaging(), stop: () => svc.operations.stop() },
    tokenPruning(f),
  ];
}
