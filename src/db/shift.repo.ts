import type { OpenSession, SessionSummary } from "../domain/session-summary.js";
import type { Sqlite } from "./open.js";
import type { SqlRow } from "./row.types.js";
import type { seatOpenSessions, seatSessions } from "./tables.js";

type SessionRow = SqlRow<typeof seatSessions>;
type OpenRow = SqlRow<typeof seatOpenSessions>;

/** The `settings` key of the targets central set (docs/mqtt.md#session-summaries). */
const TARGETS_KEY = "station.productivityTargets";

function summaryOf(r: SessionRow): SessionSummary {
  return {
    seat: r.seat,
    operator: r.operator,
    startedAt: r.startedAt,
    endedAt: r.endedAt,
    endedBy: r.endedBy,
    lines: r.lines,
    units: r.units,
    exceptions: JSON.parse(r.exceptions) as Record<string, number>,
    idleMs: r.idleMs,
  };
}

/**
 * The operators' sessions at the seats (tables/shift.table.ts) and the productivity targets central
 * set: one insert when a session ends, the shift report's read by the time a session ended.
 */
export function createShiftRepo(sqlite: Sqlite) {
  const q = {
    insert: sqlite.prepare(
      `INSERT INTO seat_sessions (seat, operator, started_at, ended_at, ended_by, lines, units, exceptions, idle_ms)
       VALUES (@seat, @operator, @startedAt, @endedAt, @endedBy, @lines, @units, @exceptions, @idleMs)`,
    ),
    between: sqlite.prepare<[number, number], SessionRow>(
      `SELECT id, seat, operator, started_at AS startedAt, ended_at AS endedAt, ended_by AS endedBy,
         lines, units, exceptions, idle_ms AS idleMs
       FROM seat_sessions WHERE ended_at >= ? AND ended_at < ? ORDER BY ended_at, id`,
    ),
    saveOpen: sqlite.prepare(
      `INSERT INTO seat_open_sessions (seat, operator, logged_in_at, started_at, tally, recent)
       VALUES (@seat, @operator, @loggedInAt, @startedAt, @tally, @recent)
       ON CONFLICT (seat) DO UPDATE SET operator = excluded.operator, logged_in_at = excluded.logged_in_at,
         started_at = excluded.started_at, tally = excluded.tally, recent = excluded.recent`,
    ),
    open: sqlite.prepare<[string], OpenRow>(
      `SELECT seat, operator, logged_in_at AS loggedInAt, started_at AS startedAt, tally, recent
       FROM seat_open_sessions WHERE seat = ?`,
    ),
    dropOpen: sqlite.prepare<[string]>("DELETE FROM seat_open_sessions WHERE seat = ?"),
    targets: sqlite.prepare<[], { value: string }>(`SELECT value FROM settings WHERE key = '${TARGETS_KEY}'`),
    setTargets: sqlite.prepare<[string]>(
      `INSERT INTO settings (key, value) VALUES ('${TARGETS_KEY}', ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    ),
  };
  return {
    insert(s: SessionSummary): void {
      q.insert.run({ ...s, exceptions: JSON.stringify(s.exceptions) });
    },
    /** The sessions that ended in [from, to), oldest first. */
    endedBetween(from: number, to: number): SessionSummary[] {
      return q.between.all(from, to).map(summaryOf);
    },
    /** The seat's open session's tally as last kept (tables/shift.table.ts `seatOpenSessions`), or null. */
    openSession(seat: string): OpenSession | null {
      const r = q.open.get(seat);
      if (!r) return null;
      return {
        seat: r.seat,
        operator: r.operator,
        loggedInAt: r.loggedInAt,
        startedAt: r.startedAt,
        tally: JSON.parse(r.tally) as OpenSession["tally"],
        recent: JSON.parse(r.recent) as OpenSession["recent"],
      };
    },
    saveOpenSession(o: OpenSession): void {
      q.saveOpen.run({ ...o, tally: JSON.stringify(o.tally), recent: JSON.stringify(o.recent) });
    },
    dropOpenSession(seat: string): void {
      q.dropOpen.run(seat);
    },
    /** The targets central set, as stored (JSON), or null. */
    targets(): unknown {
      const row = q.targets.get();
      return row ? (JSON.parse(row.value) as unknown) : null;
    },
    setTargets(value: unknown): void {
      q.setTargets.run(JSON.stringify(value));
    },
  };
}

export type ShiftRepo = ReturnType<typeof createShiftRepo>;
