import type { Sqlite } from "./open.js";
import type { SqlRow } from "./row.types.js";
import type { items, reports } from "./tables.js";

export type ReportRow = SqlRow<typeof reports>;

export type ReportStatus = ReportRow["status"];

const COLUMNS =
  "id, type, status, file_name AS fileName, requested_on AS requestedOn, generated_on AS generatedOn, base_url AS baseUrl";

/** Report requests and the inventory they are made from. */
export function createReportsRepo(sqlite: Sqlite) {
  const q = {
    insert: sqlite.prepare(
      "INSERT INTO reports (type, status, requested_on, base_url) VALUES (?, 'requested', ?, ?)",
    ),
    get: sqlite.prepare<[number], ReportRow>(`SELECT ${COLUMNS} FROM reports WHERE id = ?`),
    requested: sqlite.prepare<[], ReportRow>(
      `SELECT ${COLUMNS} FROM reports WHERE status = 'requested' ORDER BY id`,
    ),
    generated: sqlite.prepare(
      "UPDATE reports SET status = 'generated', file_name = ?, generated_on = ? WHERE id = ? AND status = 'requested'",
    ),
    failed: sqlite.prepare("UPDATE reports SET status = 'failed' WHERE id = ? AND status = 'requested'"),
    // finished reports past retention: older than the cutoff, or beyond the newest `keep`
    stale: sqlite.prepare<[number, number], { id: number; fileName: string | null }>(
      `SELECT id, file_name AS fileName FROM reports
        WHERE status != 'requested'
          AND (requested_on < ? OR id NOT IN (
            SELECT id FROM reports WHERE status != 'requested' ORDER BY id DESC LIMIT ?))
        ORDER BY id`,
    ),
    remove: sqlite.prepare("DELETE FROM reports WHERE id = ? AND status != 'requested'"),
    inventory: sqlite.prepare<
      [],
      { quantity: number; attrsJson: string } & Pick<SqlRow<typeof items>, "schemaJson">
    >(
      `SELECT sum(s.quantity) AS quantity, i.schema_json AS schemaJson, i.doc -> '$.productAttributes' AS attrsJson
         FROM stock s JOIN items i ON i.id = s.item_id
        GROUP BY s.item_id HAVING sum(s.quantity) > 0 ORDER BY s.item_id`,
    ),
  };

  return {
    insert: (type: string, now: number, baseUrl: string | null = null): number =>
      Number(q.insert.run(type, now, baseUrl).lastInsertRowid),
    get: (id: number): ReportRow | undefined => q.get.get(id),
    requested: (): ReportRow[] => q.requested.all(),
    /** False when the report is no longer waiting (already generated or failed). */
    markGenerated: (id: number, fileName: string, now: number): boolean =>
      q.generated.run(fileName, now, id).changes > 0,
    markFailed: (id: number): boolean => q.failed.run(id).changes > 0,
    /**
     * Finished reports (generated or failed) requested before `before` (epoch ms) or beyond the newest
     * `keep`; a report still requested is never among them.
     */
    stale: (before: number, keep: number) => q.stale.all(before, keep),
    remove: (id: number): boolean => q.remove.run(id).changes > 0,
    /** One row per item with stock, quantities summed over locations; one statement, so one snapshot. */
    inventory: () => q.inventory.all(),
  };
}

export type ReportsRepo = ReturnType<typeof createReportsRepo>;
