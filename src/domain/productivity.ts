/**
 * An operator's productivity at a seat (docs/station.md#productivity-and-the-shift): lines and units per
 * hour over the last 15 minutes and over the operator's session, and where the recent figures stand
 * against the station's targets. Pure: the caller passes `now` and what was done.
 */

/** One piece of work done at a seat: the lines and units one committed input took. */
export interface WorkDone {
  at: number;
  lines: number;
  units: number;
}

/** Per-hour targets; null: no target for that figure. */
export interface ProductivityTargets {
  linesPerHour: number | null;
  unitsPerHour: number | null;
}

export type Standing = "below" | "at" | "above";

export interface Rate {
  linesPerHour: number;
  unitsPerHour: number;
}

export interface Productivity {
  /** the last 15 minutes (or the session, when shorter); null in a session's first minute */
  recent: Rate | null;
  /** the whole session so far; null in its first minute */
  session: Rate | null;
  targets: ProductivityTargets;
  /** the recent figure against its target; null without a target or a figure */
  standing: { lines: Standing | null; units: Standing | null };
}

export const PRODUCTIVITY_WINDOW_MS = 15 * 60_000;
/** A rate over less than a minute says nothing yet (one line in 5 s is not 720 lines an hour). */
export const MIN_RATE_SPAN_MS = 60_000;
/** Within ±5 % of the target counts as at the target (docs/decisions.md#productivity-and-the-shift). */
export const AT_TARGET_BAND = 0.05;

const HOUR_MS = 3_600_000;

function rateOf(lines: number, units: number, spanMs: number): Rate | null {
  if (spanMs < MIN_RATE_SPAN_MS) return null;
  return {
    linesPerHour: Math.round((lines * HOUR_MS) / spanMs),
    unitsPerHour: Math.round((units * HOUR_MS) / spanMs),
  };
}

/** Where `value` stands against `target`: at within the band around it. */
export function standingOf(value: number, target: number | null): Standing | null {
  if (target === null || target <= 0) return null;
  if (value < target * (1 - AT_TARGET_BAND)) return "below";
  if (value > target * (1 + AT_TARGET_BAND)) return "above";
  return "at";
}

/**
 * The figures at `now` for a session that began at `since`: `totals` is what the whole session did,
 * `recent` the work of (at least) the last 15 minutes; older entries in it are left out.
 */
export function productivityOf(input: {
  since: number;
  now: number;
  totals: { lines: number; units: number };
  recent: readonly WorkDone[];
  targets: ProductivityTargets;
}): Productivity {
  const { since, now, totals, targets } = input;
  const from = Math.max(since, now - PRODUCTIVITY_WINDOW_MS);
  let lines = 0;
  let units = 0;
  for (const w of input.recent) {
    if (w.at < from || w.at > now) continue;
    lines += w.lines;
    units += w.units;
  }
  const recent = rateOf(lines, units, now - from);
  const session = rateOf(totals.lines, totals.units, now - since);
  return {
    recent,
    session,
    targets,
    standing: {
      lines: recent ? standingOf(recent.linesPerHour, targets.linesPerHour) : null,
      units: recent ? standingOf(recent.unitsPerHour, targets.unitsPerHour) : null,
    },
  };
}

/** Drops the work older than the window at `now` (what the shell keeps stays bounded). */
export function withinWindow(work: readonly WorkDone[], now: number): WorkDone[] {
  const from = now - PRODUCTIVITY_WINDOW_MS;
  const first = work.findIndex((w) => w.at >= from);
  return first < 0 ? [] : first === 0 ? [...work] : work.slice(first);
}
