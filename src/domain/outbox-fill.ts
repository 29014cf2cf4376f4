/**
 * How full the outbox is against its two bounds (docs/limits.md): the count `outbox.maxUndelivered` and
 * the bytes `outbox.maxUndeliveredBytes`. From OUTBOX_NEAR_FULL of either bound the operator screen says
 * when work will be refused, and at a bound that it is refused (docs/station.md#notices). Pure: the one
 * owner of this rule, for the screen's notice and for when the sync counts the bytes again.
 */

/** From this share of a bound on, the outbox is near full. */
export const OUTBOX_NEAR_FULL = 0.8;

export interface OutboxLevel {
  /** notifications waiting for central */
  undelivered: number;
  /** `outbox.maxUndelivered` */
  limit: number;
  /** the bytes their envelopes take (absent: not known) */
  undeliveredBytes?: number | undefined;
  /** `outbox.maxUndeliveredBytes` (absent: no byte bound) */
  limitBytes?: number | undefined;
}

export type OutboxFill = { state: "room" } | { state: "near_full" | "full"; bound: "count" | "bytes" };

/** A bound's state: the count's decides first, as the unit of work checks it first. */
function against(value: number, limit: number): "room" | "near_full" | "full" {
  if (value >= limit) return "full";
  return value >= limit * OUTBOX_NEAR_FULL ? "near_full" : "room";
}

/** The outbox's fill: the fuller of its two bounds (full before near full; the count before the bytes). */
export function outboxFill(o: OutboxLevel): OutboxFill {
  const count = against(o.undelivered, o.limit);
  const bytes =
    o.undeliveredBytes === undefined || o.limitBytes === undefined
      ? "room"
      : against(o.undeliveredBytes, o.limitBytes);
  for (const state of ["full", "near_full"] as const) {
    if (count === state) return { state, bound: "count" };
    if (bytes === state) return { state, bound: "bytes" };
  }
  return { state: "room" };
}

/** Whether the bytes must be counted again: an upper bound below the near-full share cannot be near full. */
export const bytesNearFull = (estimate: number, limitBytes: number): boolean =>
  estimate >= limitBytes * OUTBOX_NEAR_FULL;

/** Bytes as the screen says them: MiB with one decimal. */
export const mib = (bytes: number): number => Math.round((bytes / 2 ** 20) * 10) / 10;
