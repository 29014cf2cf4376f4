/**
 * Order in which fulfillable pick requests are worked at the station (docs/architecture.md#pick: "Work is ordered
 * by simple_priority (critical, high, normal, low), then pick_before_time; pick_after_time holds work
 * back, except for critical"; docs/interface.md "Pick request" root attributes: `normal` is the default and "critical
 * orders may even cross the before/after time boundaries").
 *
 * Order: priority, then pick_before_time earliest first (none last), then creation order. Time is an
 * input (epoch ms); nothing here reads a clock.
 */
export { formatTimestamp, parseSpecTimestamp, type TimestampParse } from "./timestamp.js";

export const SIMPLE_PRIORITIES = ["critical", "high", "normal", "low"] as const;
export type SimplePriority = (typeof SIMPLE_PRIORITIES)[number];

export interface PickWork {
  /** externalServiceRequestId */
  id: string;
  /** creation order; ids the agent assigns only grow (docs/architecture.md#conventions) */
  sequence: number;
  priority: SimplePriority;
  /** pick_before_time in epoch ms, or null when absent */
  pickBeforeMs: number | null;
  /** pick_after_time in epoch ms, or null when absent */
  pickAfterMs: number | null;
}

export type PriorityParse =
  | { ok: true; priority: SimplePriority }
  | { ok: false; error: { code: "validation_failed"; reason: string } };

/** `simple_priority` of a request's attributes; absent means `normal`. Letter case must match the spec. */
export function parseSimplePriority(value: unknown): PriorityParse {
  if (value === undefined || value === null) return { ok: true, priority: "normal" };
  const known = SIMPLE_PRIORITIES.find((p) => p === value);
  if (known) return { ok: true, priority: known };
  return {
    ok: false,
    error: {
      code: "validation_failed",
      reason: `simple_priority must be one of ${SIMPLE_PRIORITIES.join(", ")}`,
    },
  };
}

/** Whether the work may be picked at `nowMs`: from pick_after_time on, and at any time when critical. */
export function isReleased(work: PickWork, nowMs: number): boolean {
  return work.priority === "critical" || work.pickAfterMs === null || work.pickAfterMs <= nowMs;
}

/**
 * Whether pick_before_time has passed at `nowMs` for work not critical: such work, not yet started, is
 * not started any more (docs/decisions.md: it ends not_fulfillable). Critical work may cross it.
 */
export function isOverdue(work: PickWork, nowMs: number): boolean {
  return work.priority !== "critical" && work.pickBeforeMs !== null && work.pickBeforeMs <= nowMs;
}

/** Negative when `a` is to be worked before `b`. */
export function compareWork(a: PickWork, b: PickWork): number {
  const rank = SIMPLE_PRIORITIES.indexOf(a.priority) - SIMPLE_PRIORITIES.indexOf(b.priority);
  if (rank !== 0) return rank;
  if (a.pickBeforeMs !== b.pickBeforeMs) {
    if (a.pickBeforeMs === null) return 1;
    if (b.pickBeforeMs === null) return -1;
    return a.pickBeforeMs - b.pickBeforeMs;
  }
  return a.sequence - b.sequence;
}

/** The work that may be picked at `nowMs`, in the order to pick it. The input is left as it was. */
export function orderWork<W extends PickWork>(work: readonly W[], nowMs: number): W[] {
  return work.filter((w) => isReleased(w, nowMs)).sort(compareWork);
}

/**
 * The earliest pick_after_time still ahead of `nowMs` among held-back work, so the caller can wake up
 * then; null when nothing is held back.
 */
export function nextReleaseMs(work: readonly PickWork[], nowMs: number): number | null {
  let next: number | null = null;
  for (const w of work) {
    if (isReleased(w, nowMs) || w.pickAfterMs === null) continue;
    if (next === null || w.pickAfterMs < next) next = w.pickAfterMs;
  }
  return next;
}
