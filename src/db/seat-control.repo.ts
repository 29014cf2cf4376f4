import type { PauseSource } from "../domain/seat-pause.js";
import type { Sqlite } from "./open.js";

/** A message to a seat, as the screen shows it. */
export interface SeatMessageRow {
  id: number;
  seat: string;
  text: string;
  by: string;
  sentAt: number;
}

/**
 * The seats' pauses and messages (docs/station.md#pausing-a-seat). Pauses are read on every scan, so
 * they are kept in memory as well; the unit of work calls `forget` after a rollback, as for the station
 * repository.
 */
export function createSeatControlRepo(sqlite: Sqlite) {
  const q = {
    pauses: sqlite.prepare<[], PauseSource & { seat: string }>(
      "SELECT seat, source, kind, by, reason, since FROM seat_pauses ORDER BY since, source",
    ),
    clear: sqlite.prepare<[string]>("DELETE FROM seat_pauses WHERE seat = ?"),
    insert: sqlite.prepare(
      "INSERT INTO seat_pauses (seat, source, kind, by, reason, since) VALUES (@seat, @source, @kind, @by, @reason, @since)",
    ),
    send: sqlite.prepare<[string, string, string, number]>(
      "INSERT INTO seat_messages (seat, text, by, sent_at) VALUES (?, ?, ?, ?)",
    ),
    open: sqlite.prepare<[], SeatMessageRow>(
      `SELECT id, seat, text, by, sent_at AS sentAt FROM seat_messages
       WHERE acknowledged_at IS NULL ORDER BY id`,
    ),
    acknowledge: sqlite.prepare<[number, string, number, string]>(
      "UPDATE seat_messages SET acknowledged_at = ?, acknowledged_by = ? WHERE id = ? AND seat = ? AND acknowledged_at IS NULL",
    ),
  };
  let pauses: Map<string, PauseSource[]> | undefined;
  function all(): Map<string, PauseSource[]> {
    if (pauses) return pauses;
    const bySeat = new Map<string, PauseSource[]>();
    for (const { seat, ...p } of q.pauses.all()) bySeat.set(seat, [...(bySeat.get(seat) ?? []), p]);
    pauses = bySeat;
    return bySeat;
  }
  return {
    pauses: (seat: string): PauseSource[] => all().get(seat) ?? [],
    /** Seats with at least one pause source. */
    pausedSeats: (): Set<string> => new Set(all().keys()),
    setPauses(seat: string, sources: readonly PauseSource[]): void {
      q.clear.run(seat);
      for (const s of sources) q.insert.run({ seat, ...s });
      const next = new Map(all());
      if (sources.length) next.set(seat, [...sources]);
      else next.delete(seat);
      pauses = next;
    },
    send: (seat: string, text: string, by: string, at: number): number =>
      Number(q.send.run(seat, text, by, at).lastInsertRowid),
    /** Messages not yet acknowledged, oldest first. */
    openMessages: (): SeatMessageRow[] => q.open.all(),
    acknowledge: (seat: string, id: number, user: string, at: number): boolean =>
      q.acknowledge.run(at, user, id, seat).changes > 0,
    forget(): void {
      pauses = undefined;
    },
  };
}

export type SeatControlRepo = ReturnType<typeof createSeatControlRepo>;
