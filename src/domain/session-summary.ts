/**
 * An operator's session at a seat, summed up when they log out or are signed out for idling
 * (docs/station.md#productivity-and-the-shift): what is stored, what central gets as the
 * `session_summary` notification, and the shift report's CSV rows. Pure.
 */
import { z } from "zod";
import { csvField } from "./inventory-report.js";
import { instant } from "./security-event.js";

export const SESSION_END_REASONS = ["logout", "idle"] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

export interface SessionSummary {
  seat: string;
  operator: string;
  startedAt: number;
  endedAt: number;
  endedBy: SessionEndReason;
  lines: number;
  units: number;
  /** exception reports by kind (the pick or put exception's reason) */
  exceptions: Readonly<Record<string, number>>;
  /** time spent in gaps of more than IDLE_GAP_MS without any input */
  idleMs: number;
}

/**
 * A gap between two inputs longer than this counts as idle, whole (docs/decisions.md#productivity-and-the-shift):
 * walking to the next rack face takes less.
 */
export const IDLE_GAP_MS = 60_000;

/** The idle time a gap from `last` to `at` adds. */
export function idleOfGap(last: number, at: number): number {
  const gap = at - last;
  return gap > IDLE_GAP_MS ? gap : 0;
}

/** The running tally of a session, as the shell keeps it between inputs. */
export interface SessionTally {
  lines: number;
  units: number;
  exceptions: Record<string, number>;
  idleMs: number;
  lastActivity: number;
}

export function emptyTally(at: number): SessionTally {
  return { lines: 0, units: 0, exceptions: {}, idleMs: 0, lastActivity: at };
}

/** The tally after one input at `at` that did `work` (none: an input that did no work still counts as activity). */
export function tallied(
  t: SessionTally,
  at: number,
  work: { lines: number; units: number; exceptions: readonly string[] },
): SessionTally {
  const exceptions = { ...t.exceptions };
  for (const e of work.exceptions) exceptions[e] = (exceptions[e] ?? 0) + 1;
  return {
    lines: t.lines + work.lines,
    units: t.units + work.units,
    exceptions,
    idleMs: t.idleMs + idleOfGap(t.lastActivity, at),
    lastActivity: Math.max(t.lastActivity, at),
  };
}

/** The summary of a session that ends at `at`; the gap since the last input counts as well. */
export function summaryOf(
  session: { seat: string; operator: string; startedAt: number; tally: SessionTally },
  at: number,
  endedBy: SessionEndReason,
): SessionSummary {
  const { tally } = session;
  const exceptions = Object.fromEntries(
    Object.entries(tally.exceptions).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
  return {
    seat: session.seat,
    operator: session.operator,
    startedAt: session.startedAt,
    endedAt: at,
    endedBy,
    lines: tally.lines,
    units: tally.units,
    exceptions,
    idleMs: tally.idleMs + idleOfGap(tally.lastActivity, at),
  };
}

const iso = (ms: number) => new Date(ms).toISOString();
const minutes = (ms: number) => Math.round(ms / 6000) / 10;

/** The `session_summary` notification's data (docs/mqtt.md#session-summaries). */
export function sessionNotification(s: SessionSummary) {
  return {
    seat: s.seat,
    operator: s.operator,
    started_at: iso(s.startedAt),
    ended_at: iso(s.endedAt),
    ended_by: s.endedBy,
    lines: s.lines,
    units: s.units,
    exceptions: s.exceptions,
    idle_minutes: minutes(s.idleMs),
  };
}

export const SHIFT_CSV_COLUMNS = [
  "seat",
  "operator",
  "started_at",
  "ended_at",
  "ended_by",
  "minutes",
  "lines",
  "units",
  "exceptions",
  "idle_minutes",
  "lines_per_hour",
  "units_per_hour",
] as const;

/** Exceptions in one cell: `kind=n` joined by `;`, kinds in order. */
function exceptionsCell(e: Readonly<Record<string, number>>): string {
  return Object.entries(e)
    .map(([k, n]) => `${k}=${n}`)
    .join(";");
}

function perHour(n: number, ms: number): string {
  return ms > 0 ? String(Math.round((n * 3_600_000) / ms)) : "";
}

/** The shift report: a header row, then one row per session (RFC 4180, CRLF). */
export function shiftCsv(sessions: readonly SessionSummary[]): string {
  const rows = [SHIFT_CSV_COLUMNS.join(",")];
  for (const s of sessions) {
    const span = s.endedAt - s.startedAt;
    const cells = [
      s.seat,
      s.operator,
      iso(s.startedAt),
      iso(s.endedAt),
      s.endedBy,
      String(minutes(span)),
      String(s.lines),
      String(s.units),
      exceptionsCell(s.exceptions),
      String(minutes(s.idleMs)),
      perHour(s.lines, span),
      perHour(s.units, span),
    ];
    rows.push(cells.map(csvField).join(","));
  }
  return `${rows.join("\r\n")}\r\n`;
}

/** The shift report's default period: the last 24 hours before its end. */
export const DEFAULT_SHIFT_REPORT_MS = 24 * 3_600_000;

/** The shift report's period as asked (`pps-edge report shift --from --to`): ISO 8601 instants. */
export const shiftReportQuerySchema = z
  .object({ from: instant.optional(), to: instant.optional() })
  .refine((q) => q.from === undefined || q.to === undefined || q.from < q.to, {
    path: ["to"],
    message: "must be after --from",
  });

/** The period [from, to) of the sessions that ended in it: by default the 24 hours up to now. */
export function shiftPeriod(q: { from?: number | undefined; to?: number | undefined }, now: number) {
  const to = q.to ?? (q.from === undefined ? now : Math.max(now, q.from + 1));
  return { from: q.from ?? to - DEFAULT_SHIFT_REPORT_MS, to };
}

/**
 * A session still open, as kept between inputs so an agent restart goes on counting
 * (docs/station.md#productivity-and-the-shift): whose login it is, its tally and the work of the last
 * 15 minutes.
 */
export interface OpenSession {
  seat: string;
  operator: string;
  /** the seat's `logged_in_at`: the stored tally is this login's only */
  loggedInAt: number | null;
  startedAt: number;
  tally: SessionTally;
  recent: ReadonlyArray<{ at: number; lines: number; units: number }>;
}
