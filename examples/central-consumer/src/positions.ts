/**
 * The consumer's position per station in SQLite: the highest seq handed to the sink. It is written
 * after the sink took the notifications, so a crash in between delivers them again after a restart
 * (at least once), and never skips one. WAL with synchronous=NORMAL: a power cut may lose the last
 * positions, which again means delivering again, not losing. Replicas on RabbitMQ (amqp-consumer.ts) share
 * one file: the one that takes a station over from another starts where that one left off, and the
 * `owner` column says which replica delivered last (the one that watches the station's high-water mark).
 */
import Database from "better-sqlite3";

export interface Positions {
  /** Every station with a stored position. */
  all(): Map<string, number>;
  /** The stored position of one station and the replica that stored it ("" for the MQTT consumer). */
  get(station: string): { seq: number; owner: string } | undefined;
  save(station: string, seq: number, owner?: string): void;
  close(): void;
}

export function openPositions(file: string): Positions {
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  // replicas sharing the file wait for each other's short writes instead of failing
  db.pragma("busy_timeout = 5000");
  db.exec("CREATE TABLE IF NOT EXISTS positions (station TEXT PRIMARY KEY, seq INTEGER NOT NULL)");
  const columns = db.prepare<[], { name: string }>("SELECT name FROM pragma_table_info('positions')").all();
  if (!columns.some((c) => c.name === "owner"))
    db.exec("ALTER TABLE positions ADD COLUMN owner TEXT NOT NULL DEFAULT ''");
  const upsert = db.prepare(
    "INSERT INTO positions (station, seq, owner) VALUES (?, ?, ?) ON CONFLICT(station) DO UPDATE SET seq = excluded.seq, owner = excluded.owner",
  );
  const one = db.prepare<[string], { seq: number; owner: string }>(
    "SELECT seq, owner FROM positions WHERE station = ?",
  );
  const rows = db.prepare<[], { station: string; seq: number }>("SELECT station, seq FROM positions");
  return {
    all: () => new Map(rows.all().map((r) => [r.station, r.seq])),
    get: (station) => one.get(station),
    save: (station, seq, owner = "") => {
      upsert.run(station, seq, owner);
    },
    close: () => db.close(),
  };
}
