import { createHash } from "node:crypto";
import type Database from "better-sqlite3";

/**
 * Tables a refused request may legitimately write, left out of the digest:
 * - `security_events`: every failed login and every role refusal is recorded there by design
 *   (docs/security.md), so the token endpoint's refusals add rows;
 * - `mqtt_inbox`: an MQTT request's answer, a refusal too, is stored under its transaction so that a
 *   repeat gets the same answer (src/sync/requests.ts); only the MQTT fuzz excludes it.
 * Every other table, tokens and users included, must stay exactly as it was.
 */
export const HTTP_EXCLUDED = ["security_events"];
export const MQTT_EXCLUDED = ["security_events", "mqtt_inbox"];

/** The tables in a fixed order, and a statement per table reading its rows in a fixed order. */
function readers(sqlite: Database.Database, excluded: string[]) {
  const names = (
    sqlite
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .pluck()
      .all() as string[]
  ).filter((n) => !excluded.includes(n));
  return names.map((name) => {
    const cols = (sqlite.prepare(`PRAGMA table_info("${name}")`).all() as { name: string }[]).map(
      (c) => `"${c.name}"`,
    );
    return { name, stmt: sqlite.prepare(`SELECT * FROM "${name}" ORDER BY ${cols.join(", ")}`).raw() };
  });
}

/** sha256 over every row of every table (but `excluded`), in a fixed order: equal digests, equal data. */
export function digester(sqlite: Database.Database, excluded: string[]): () => string {
  const tables = readers(sqlite, excluded);
  if (tables.length < 10) throw new Error(`only ${tables.length} tables: is this the agent's database?`);
  const perTable = () =>
    tables.map(({ name, stmt }) => {
      const hash = createHash("sha256");
      for (const row of stmt.all() as unknown[][]) hash.update(`${JSON.stringify(row)}\n`);
      return `${name}:${hash.digest("hex").slice(0, 16)}`;
    });
  // the digest lists each table's own hash, so a difference names the tables that changed
  return () => perTable().join(" ");
}

/** The tables whose rows differ between two digests. */
export function changedTables(before: string, after: string): string[] {
  const a = new Set(before.split(" "));
  return after
    .split(" ")
    .filter((x) => !a.has(x))
    .map((x) => x.split(":")[0] as string);
}
