/**
 * The lines of one visit of racks at the station (pure; docs/station.md#operator-screen "line n of m"):
 * the screen's repository lists only the pick lines still open, so a picked line leaves the list. A visit
 * remembers every line listed while the same racks are presented; those no longer listed are done, and
 * the card counts "line n of m" over done and open lines together. Other racks start a new visit.
 */
import type { ScreenPickRow } from "../../../domain/screen-rows.js";

export interface RackVisit {
  /** the presented racks, as one key */
  racks: string;
  /** every line listed during the visit, by order, line and slot */
  seen: ReadonlySet<string>;
}

/** A visit bounds its memory: far more lines than one rack holds (the read lists at most 100). */
const MAX_SEEN = 10_000;

const lineKey = (r: Pick<ScreenPickRow, "order" | "line" | "slot">): string =>
  `${r.order}\u0000${r.line}\u0000${r.slot}`;

/** The visit after a read of `racks` and the open `rows`: the same racks keep what they saw. */
export function nextVisit(prev: RackVisit | null, racks: readonly string[], rows: readonly ScreenPickRow[]) {
  const key = racks.join("\u0000");
  const seen = new Set(prev && prev.racks === key && prev.seen.size < MAX_SEEN ? prev.seen : []);
  for (const r of rows) seen.add(lineKey(r));
  return { racks: key, seen } satisfies RackVisit;
}

/** Lines of the visit no longer listed: picked (or settled) since the racks came. */
export function doneLines(visit: RackVisit, rows: readonly ScreenPickRow[]): number {
  const open = new Set(rows.map(lineKey));
  let done = 0;
  for (const k of visit.seen) if (!open.has(k)) done++;
  return done;
}
