import type { Sqlite } from "./open.js";
import type { SqlRow } from "./row.types.js";
import type { bins, seats, stationState } from "./schema.js";

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

  return {
    /** Ensures the configured seats and bins, and the mode on a new database (in the caller's transaction). */
    init(seatNames: string[], binIds: string[], initialMode: StationMode, now: number): void {
      q.initMode.run(initialMode, now);
      for (const s of seatNames) q.ensureSeat.run(s);
      for (const b of binIds) q.ensureBin.run(b, now);
    },
    mode: (): StationMode => q.mode.get()?.mode ?? "pick",
    setMode: (mode: StationMode, now: number) => q.setMode.run(mode, now),
    seats: () => q.seats.all(),
    seat: (name: string) => q.seat.get(name),
    login: (seat: string, user: string | null, now: number | null) => q.login.run(user, now, seat),
    bins: () => q.bins.all(),
    bin: (id: string) => q.bin.get(id),
    setBin: (id: string, state: BinState, printState: PrintState, now: number) =>
      q.setBin.run(state, printState, now, id),
  };
}

export type StationRepo = ReturnType<typeof createStationRepo>;
