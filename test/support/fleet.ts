/**
 * What the fleet system tests (test/system/fleet/) share: each station's own node first in its list of
 * nodes, and the audit of what central was handed against what the stations committed.
 */
import type { Delivery } from "../../examples/central-consumer/src/stations.js";

/** Node i first, then the others: each station's own node and its failover list. */
export const rotated = (urls: string[], i: number): string[] => [
  ...urls.slice(i % urls.length),
  ...urls.slice(0, i % urls.length),
];

/**
 * Per station, what central was handed, in the order it was handed: missing (committed, never handed),
 * inversions (a seq after a higher one), duplicates, and wrong (a payload not the one committed).
 */
export function audit(handed: readonly Delivery[], expected: Map<string, readonly string[]>) {
  const byStation = new Map<string, Delivery[]>();
  for (const d of handed) byStation.set(d.station, [...(byStation.get(d.station) ?? []), d]);
  let missing = 0;
  let inversions = 0;
  let duplicates = 0;
  let wrong = 0;
  for (const [station, payloads] of expected) {
    const got = byStation.get(station) ?? [];
    const seen = new Map<number, string>();
    let last = 0;
    for (const d of got) {
      if (seen.has(d.seq)) duplicates++;
      else if (d.seq < last) inversions++;
      seen.set(d.seq, d.payload);
      last = Math.max(last, d.seq);
    }
    payloads.forEach((p, i) => {
      const g = seen.get(i + 1);
      if (g === undefined) missing++;
      else if (g !== p) wrong++;
    });
  }
  return { missing, inversions, duplicates, wrong };
}
