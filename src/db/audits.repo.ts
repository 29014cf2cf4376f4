import type { Sqlite } from "./open.js";
import type { SqlRow } from "./row.types.js";
import type { auditLines, audits, items, locations, stock } from "./tables.js";

export type AuditRow = SqlRow<typeof audits>;

export type AuditLineRow = Pick<
  SqlRow<typeof auditLines>,
  "id" | "auditLineId" | "itemId" | "location" | "status" | "expectedQty" | "countJson"
> & {
  /** The item's schema and productAttributes (JSON), for the line's pdfa_values; null if gone. */
  schemaJson: SqlRow<typeof items>["schemaJson"] | null;
  attrsJson: string | null;
};

/** What a new audit is made of; `kq` is a boolean here and bound as 0/1. */
export type NewAudit = Pick<
  typeof audits.$inferSelect,
  "auditId" | "name" | "paramType" | "paramValueJson" | "kq" | "creatorName" | "userName"
>;

export type AuditPatch = Pick<AuditRow, "status" | "pausedFrom" | "ppsSeatName" | "userName" | "completedOn">;

export type StockQty = Pick<SqlRow<typeof stock>, "location" | "itemId" | "quantity">;

const AUDIT_COLUMNS = `id, audit_id AS auditId, name, param_type AS paramType, param_value_json AS paramValueJson, kq,
  creator_name AS creatorName, status, paused_from AS pausedFrom, pps_seat_name AS ppsSeatName,
  user_name AS userName, created_on AS createdOn, completed_on AS completedOn, updated_on AS updatedOn`;

const LINE_COLUMNS = `l.id, l.audit_line_id AS auditLineId, l.item_id AS itemId, l.location, l.status,
  l.expected_qty AS expectedQty, l.count_json AS countJson, i.schema_json AS schemaJson,
  i.doc -> '$.productAttributes' AS attrsJson`;

/** The repository's statements, each prepared once. */
function prepareAuditStatements(sqlite: Sqlite) {
  return {
    insert: sqlite.prepare(
      `INSERT INTO audits (audit_id, name, param_type, param_value_json, kq, creator_name, status, user_name,
                           created_on, updated_on)
       VALUES (@auditId, @name, @paramType, @paramValueJson, @kq, @creatorName, 'created', @userName, @now, @now)`,
    ),
    byAuditId: sqlite.prepare<[string], AuditRow>(`SELECT ${AUDIT_COLUMNS} FROM audits WHERE audit_id = ?`),
    byId: sqlite.prepare<[number], AuditRow>(`SELECT ${AUDIT_COLUMNS} FROM audits WHERE id = ?`),
    withStatus: sqlite.prepare<[string], AuditRow>(
      `SELECT ${AUDIT_COLUMNS} FROM audits WHERE status = ? ORDER BY id`,
    ),
    update: sqlite.prepare(
      `UPDATE audits SET status = @status, paused_from = @pausedFrom, pps_seat_name = @ppsSeatName,
              user_name = @userName, completed_on = @completedOn, updated_on = @now WHERE id = @id`,
    ),
    insertLine: sqlite.prepare(
      `INSERT INTO audit_lines (audit_line_id, audit_row_id, item_id, location, status, expected_qty, updated_on)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ),
    lines: sqlite.prepare<[number], AuditLineRow>(
      `SELECT ${LINE_COLUMNS} FROM audit_lines l LEFT JOIN items i ON i.id = l.item_id
        WHERE l.audit_row_id = ? ORDER BY l.id`,
    ),
    setLine: sqlite.prepare("UPDATE audit_lines SET status = ?, count_json = ?, updated_on = ? WHERE id = ?"),
    resolveLocations: sqlite.prepare<[string, string], Pick<SqlRow<typeof locations>, "id">>(
      `SELECT id FROM locations WHERE id IN (SELECT value FROM json_each(?))
       UNION SELECT id FROM locations WHERE msu IN (SELECT value FROM json_each(?)) ORDER BY id`,
    ),
    stockAt: sqlite.prepare<[string], StockQty>(
      `SELECT location, item_id AS itemId, quantity FROM stock
        WHERE location IN (SELECT value FROM json_each(?)) AND quantity > 0 ORDER BY location, item_id`,
    ),
    stockOf: sqlite.prepare<[string], StockQty>(
      `SELECT location, item_id AS itemId, quantity FROM stock
        WHERE item_id IN (SELECT value FROM json_each(?)) AND quantity > 0 ORDER BY location, item_id`,
    ),
    itemsBySku: sqlite.prepare<[string], Pick<SqlRow<typeof items>, "id"> & { attrsJson: string }>(
      "SELECT id, doc -> '$.productAttributes' AS attrsJson FROM items WHERE product_sku = ? ORDER BY id",
    ),
    // A pick holds a location while it has reservations there; a staged put holds one where it has put
    // stock (its actuals) (docs/architecture.md#audit).
    conflicts: sqlite.prepare<[string, string], { picks: number; puts: number }>(
      `SELECT (SELECT count(*) FROM reservations
                WHERE quantity > 0 AND location IN (SELECT value FROM json_each(?))) AS picks,
              (SELECT count(*) FROM actuals a JOIN service_requests s ON s.id = a.request_id
                WHERE s.type = 'PUT' AND s.state = 'staged'
                  AND a.location IN (SELECT value FROM json_each(?))) AS puts`,
    ),
    setStock: sqlite.prepare(
      `INSERT INTO stock (location, item_id, quantity, reserved) VALUES (?, ?, ?, 0)
       ON CONFLICT(location, item_id) DO UPDATE SET quantity = excluded.quantity`,
    ),
    reservedAt: sqlite.prepare<[string, number], Pick<SqlRow<typeof stock>, "reserved">>(
      "SELECT reserved FROM stock WHERE location = ? AND item_id = ?",
    ),
    // Slots under an audit that is being counted or decided are not allocated: a count must not race
    // a pick (docs/architecture.md#audit; the audit waits for picks that already hold the slot).
    locked: sqlite.prepare<[], Pick<AuditLineRow, "location">>(
      `SELECT DISTINCT al.location FROM audit_lines al JOIN audits a ON a.id = al.audit_row_id
        WHERE a.status IN ('waiting_on_conflict', 'queued', 'started', 'pending_approval', 'rejected',
                           'sent_for_reaudit', 'paused')`,
    ),
  };
}

/** Audits, their lines, and the stock and conflict queries an audit needs. Lists go in as one JSON parameter. */
export function createAuditsRepo(sqlite: Sqlite) {
  const q = prepareAuditStatements(sqlite);
  /**
   * The slots audits hold, in memory: every pick create allocates around them, and they change only
   * through this repository (an audit's status, its lines). Each such write drops the copy; the unit
   * of work calls `forget` on a rollback, which may have undone one.
   */
  let locked: ReadonlySet<string> | undefined;
  const forget = (): void => {
    locked = undefined;
  };

  return {
    insert(a: NewAudit, now: number): AuditRow {
      forget();
      const id = Number(q.insert.run({ ...a, kq: a.kq ? 1 : 0, now }).lastInsertRowid);
      return q.byId.get(id) as AuditRow;
    },
    /** Slots no pick may be allocated at now: those of audits being counted or decided. */
    lockedLocations(): ReadonlySet<string> {
      locked ??= new Set(q.locked.all().map((r) => r.location));
      return locked;
    },
    forget,
    get: (auditId: string): AuditRow | undefined => q.byAuditId.get(auditId),
    withStatus: (status: string): AuditRow[] => q.withStatus.all(status),
    update(id: number, patch: AuditPatch, now: number): AuditRow {
      forget();
      q.update.run({ ...patch, now, id });
      return q.byId.get(id) as AuditRow;
    },
    insertLine(
      auditRowId: number,
      line: Pick<AuditLineRow, "auditLineId" | "itemId" | "location" | "status" | "expectedQty">,
      now: number,
    ): void {
      forget();
      q.insertLine.run(
        line.auditLineId,
        auditRowId,
        line.itemId,
        line.location,
        line.status,
        line.expectedQty,
        now,
      );
    },
    lines: (auditRowId: number): AuditLineRow[] => q.lines.all(auditRowId),
    setLine(id: number, status: string, countJson: string | null, now: number): void {
      q.setLine.run(status, countJson, now, id);
    },
    /** Slot ids as they are, MSU ids as all of their slots; unknown ids resolve to nothing. */
    resolveLocations(ids: string[]): string[] {
      const json = JSON.stringify(ids);
      return q.resolveLocations.all(json, json).map((r) => r.id);
    },
    stockAt: (locations: string[]): StockQty[] =>
      locations.length ? q.stockAt.all(JSON.stringify(locations)) : [],
    stockOf: (itemIds: number[]): StockQty[] =>
      itemIds.length ? q.stockOf.all(JSON.stringify(itemIds)) : [],
    itemsBySku: (sku: string) => q.itemsBySku.all(sku),
    conflicts(locations: string[]): { picks: number; puts: number } {
      const json = JSON.stringify(locations);
      return q.conflicts.get(json, json) ?? { picks: 0, puts: 0 };
    },
    setStock(location: string, itemId: number, quantity: number): void {
      q.setStock.run(location, itemId, quantity);
    },
    reservedAt: (location: string, itemId: number): number =>
      q.reservedAt.get(location, itemId)?.reserved ?? 0,
  };
}

export type AuditsRepo = ReturnType<typeof createAuditsRepo>;
