/**
 * The consumer's position per station in SQLite: the highest seq handed to the sink. It is written
 * after the sink took the notifications, so a crash in between delivers them again after a restart
 * (at least once), and never skips one. WAL with synchronous=NORMAL: a power cut may lose the last
 * positions, which again means delivering again, not losing.
 */
import Database from "better-sqlite3";

export interface Positions {
  /** Every station with a stored position. */
  all(): Map<string, number>;
  save(station: string, seq: number): void;
  close(): void;
}

export function openPositions(file: string): Positions {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.exec("CREATE TABLE IF NOT EXISTS positions (station TEXT PRIMARY KEY, seq INTEGER NOT NULL)");
  const upsert = db.prepare(
    "INSERT INTO positions (station, seq) VALUES (?, ?) ON CONFLICT(station) DO UPDATE SET seq = excluded.seq",
  );
  const rows = db.prepare<[], { station: string; seq: number }>("SELECT station, seq FROM positions");
  return {
    all: () => new Map(rows.all().map((r) => [r.station, r.seq])),
    save: (station, seq) => {
      upsert.run(station, seq);
    },
    close: () => db.close(),
  };
}
