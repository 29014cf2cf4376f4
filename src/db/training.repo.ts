import type { Sqlite } from "./open.js";

/**
 * The seats in training (tables/training.table.ts; docs/station.md#training): kept so a restart keeps
 * them in training. The training station's own work is in its own database, not here.
 */
export function createTrainingRepo(sqlite: Sqlite) {
  const q = {
    seats: sqlite.prepare<[], { seat: string }>("SELECT seat FROM training_seats ORDER BY since, seat"),
    add: sqlite.prepare<[string, number]>(
      "INSERT INTO training_seats (seat, since) VALUES (?, ?) ON CONFLICT (seat) DO NOTHING",
    ),
    remove: sqlite.prepare<[string]>("DELETE FROM training_seats WHERE seat = ?"),
  };
  return {
    seats: (): string[] => q.seats.all().map((r) => r.seat),
    add(seat: string, since: number): void {
      q.add.run(seat, since);
    },
    remove(seat: string): void {
      q.remove.run(seat);
    },
  };
}

export type TrainingRepo = ReturnType<typeof createTrainingRepo>;
