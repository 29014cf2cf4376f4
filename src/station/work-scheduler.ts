import type { Logger } from "pino";
import type { EventBus } from "../events.js";

const OWNER = "work-scheduler";
/** setTimeout's limit; a later release is re-armed when this fires. */
const MAX_DELAY = 2_147_000_000;

/**
 * Releases pick work held back by pick_after_time, and ends work not started by its pick_before_time
 * (docs/architecture.md#pick), when its time comes: one timer at the earliest announced time, no polling.
 */
export function createWorkScheduler(deps: {
  bus: EventBus;
  release: () => void;
  /** The earliest release still ahead, read once at start (events before a restart are gone). */
  nextHeld: () => number | null;
  now: () => number;
  log: Logger;
}) {
  let timer: NodeJS.Timeout | undefined;
  let nextAt = Number.POSITIVE_INFINITY;

  function arm(at: number): void {
    if (at >= nextAt) return;
    nextAt = at;
    if (timer) clearTimeout(timer);
    timer = setTimeout(fire, Math.min(MAX_DELAY, Math.max(0, at - deps.now())));
    timer.unref();
  }

  function fire(): void {
    const due = nextAt;
    timer = undefined;
    nextAt = Number.POSITIVE_INFINITY;
    if (due > deps.now()) {
      arm(due);
      return;
    }
    try {
      deps.release();
    } catch (err) {
      deps.log.error({ err }, "releasing held pick work failed");
    }
    const later = deps.nextHeld();
    if (later !== null) arm(later);
  }

  return {
    start(): void {
      deps.bus.on(OWNER, "heldWork", (e) => arm(e.releaseAt));
      // Work held before a restart: one pass now assigns whatever became due while the agent was down.
      arm(deps.now());
      const later = deps.nextHeld();
      if (later !== null) arm(later);
    },
    stop(): void {
      deps.bus.off(OWNER);
      if (timer) clearTimeout(timer);
      timer = undefined;
      nextAt = Number.POSITIVE_INFINITY;
    },
  };
}
