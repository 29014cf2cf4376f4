import type { Sqlite } from "./open.js";
import type { SqlRow } from "./row.types.js";
import type { bins, seats, stationState } from "./tables.js";

type StationStateRow = SqlRow<typeof stationState>;
export type StationMode = StationStateRow["mode"];
export type BinState = SqlRow<typeof bins>["state"];
export type PrintState = SqlRow<typeof bins>["printState"];

export type BinRow = Pick<SqlRow<typeof bins>, "id" | "state" | "printState">;

export type SeatRow = SqlRow<typeof seats>;

/** Station mode, seats and order bins. The configured seats and bins are ensured at start. */
export function createStationRepo(sqlite: Sqlite) {
  const q = {
    mode: sqlite.prepare<[], Pick<StationStateRow, "mode">>("SELECT mode FROM station_state WHERE id = 1"),
    initMode: sqlite.prepare("INSERT OR IGNORE INTO station_state (id, mode, updated_at) VALUES (1, ?, ?)"),
    setMode: sqlite.prepare("UPDATE station_state SET mode = ?, updated_at = ? WHERE id = 1"),
    ensureSeat: sqlite.prepare("INSERT OR IGNORE INTO seats (seat) VALUES (?)"),
    seats: sqlite.prepare<[], SeatRow>(
      "SELECT seat, user_name AS userName, logged_in_at AS loggedInAt FROM seats ORDER BY seat",
    ),
    seat: sqlite.prepare<[string], SeatRow>(
      "SELECT seat, user_name AS userName, logged_in_at AS loggedInAt FROM seats WHERE seat = ?",
    ),
    login: sqlite.prepare("UPDATE seats SET user_name = ?, logged_in_at = ? WHERE seat = ?"),
    ensureBin: sqlite.prepare(
      "INSERT OR IGNORE INTO bins (id, state, print_state, updated_at) VALUES (?, 'empty', 'none', ?)",
    ),
    bins: sqlite.prepare<[], BinRow>(
      "SELECT id, state, print_state AS printState FROM bins ORDER BY length(id), id",
    ),
    bin: sqlite.prepare<[string], BinRow>(
      "SELECT id, state, print_state AS printState FROM bins WHERE id = ?",
    ),
    setBin: sqlite.prepare("UPDATE bins SET state = ?, print_state = ?, updated_at = ? WHERE id = ?"),
  };

  /**
   * The three small tables in memory: every scan and every pick create asks for the mode, a seat or the
   * bins, and only this repository writes them. Each write updates the database and the copy; the unit
   * of work calls `forget` when a transaction or savepoint rolls back, and the copy is read again.
   */
  let mode: StationMode | undefined;
  let seats: SeatRow[] | undefined;
  let bins: BinRow[] | undefined;
  function forget(): void {
    mode = undefined;
    seats = undefined;
    bins = undefined;
  }
  function seatRows(): SeatRow[] {
    seats ??= q.seats.all();
    return seats;
  }
  function binRows(): BinRow[] {
    bins ??= q.bins.all();
    return bins;
  }

  return {
    /** Ensures the configured seats and bins, and the mode on a new database (in the caller's transaction). */
    init(seatNames: string[], binIds: string[], initialMode: StationMode, now: number): void {
      q.initMode.run(initialMode, now);
      for (const s of seatNames) q.ensureSeat.run(s);
      for (const b of binIds) q.ensureBin.run(b, now);
      forget();
    },
    mode(): StationMode {
      mode ??= q.mode.get()?.mode ?? "pick";
      return mode;
    },
    setMode(next: StationMode, now: number): void {
      mode = q.setMode.run(next, now).changes ? next : undefined;
    },
    seats: (): SeatRow[] => seatRows().slice(),
    seat: (name: string): SeatRow | undefined => seatRows().find((s) => s.seat === name),
    login(seat: string, user: string | null, now: number | null): void {
      q.login.run(user, now, seat);
      seats = seats?.map((s) => (s.seat === seat ? { seat, userName: user, loggedInAt: now } : s));
    },
    bins: (): BinRow[] => binRows().slice(),
    bin: (id: string): BinRow | undefined => binRows().find((b) => b.id === id),
    setBin(id: string, state: BinState, printState: PrintState, now: number): void {
      q.setBin.run(state, printState, now, id);
      bins = bins?.map((b) => (b.id === id ? { id, state, printState } : b));
    },
    /** A rollback may have undone writes: the tables are read again when next asked for. */
    forget,
  };
}

export type StationRepo = ReturnType<typeof createStationRepo>;
