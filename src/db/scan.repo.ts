import type { AuditLineRow, AuditRow } from "./audits.repo.js";
import type { ItemRow } from "./items.repo.js";
import type { Sqlite } from "./open.js";
import type { LineRow, RequestRow, ReservationRow } from "./requests.repo.js";
import type { SqlRow } from "./row.types.js";
import type { locations } from "./tables.js";

/**
 * Reads behind the station engine's lookups (hot path: a scan must light its bin within a few
 * milliseconds, docs/architecture.md#performance-targets). A scan itself reads one statement, what its text is in the data;
 * the rest is the station's work, read whole when it changed (services/scan-lookup/station-work.ts):
 * the racks presented, the pick work reserved at their slots, the staged and complete puts, the audit
 * being counted.
 */
export type PickCandidateRow = Pick<ReservationRow, "location" | "itemId"> & {
  externalServiceRequestId: RequestRow["externalId"];
  line: LineRow["externalId"];
  /** What is left to pick of the reservation: min(reserved, still expected). */
  quantity: number;
  /** Only requests already in a bin are candidates. */
  binId: NonNullable<RequestRow["binId"]>;
  /** the item's `scan_required` (productAttributes): every unit is scanned; absent when false */
  scanRequired?: boolean;
};

/** `productAttributes.scan_required` is JSON true (docs/interface.md#product-attributes: a boolean). */
const SCAN_REQUIRED = "json_type(i.doc, '$.productAttributes.scan_required') = 'true'";

/**
 * A level's `type` in the item's itemConfig, its path (`level.0.level.1`) read as a JSON path
 * (`$.itemConfig.level[0].level[1]`). A `virtual` level is "not a container, an each" (spec: Item
 * config level `type`): its barcode means one unit, as the item's own barcode does.
 */
const VIRTUAL_LEVEL = `json_extract(i.doc, '$.itemConfig.' || replace(replace(b.level_path, 'level.', 'level['), '.', '].') || ']' || '.type') = 'virtual'`;

export type PutRow = Pick<RequestRow, "id" | "state" | "binId" | "expectationsJson" | "attributesJson"> & {
  externalServiceRequestId: RequestRow["externalId"];
};

type LocationRow = SqlRow<typeof locations>;

/**
 * What a scanned text is in the data: an item's barcode (or a `virtual` level's: one unit), the barcode
 * of one of its packing levels (itemConfig), a slot, an MSU (one row per slot).
 */
export type MeaningRow =
  | {
      kind: "item" | "level";
      itemId: number;
      sku: ItemRow["productSku"];
      location: null;
      msu: null;
      /** the item's `scan_required`; absent when false */
      scanRequired?: true;
      /** a level's path in the item's itemConfig (`level.0.level.1`); null for the item's own barcodes */
      levelPath: string | null;
    }
  | {
      kind: "slot" | "msu";
      itemId: null;
      sku: null;
      location: LocationRow["id"];
      msu: LocationRow["msu"];
      levelPath: null;
    };

/** As read: `scanRequired` is SQLite's 0 or 1 (0 for slots and MSUs). */
type RawMeaningRow = Omit<MeaningRow, "scanRequired"> & { scanRequired: number };

export function createScanRepo(sqlite: Sqlite) {
  const q = {
    // three index lookups, one statement: item (or one of its levels) first, then the slot, then the
    // MSU's slots by id
    meanings: sqlite.prepare<[{ text: string }], RawMeaningRow>(
      `SELECT CASE WHEN b.level_path IS NULL OR ${VIRTUAL_LEVEL} THEN 'item' ELSE 'level' END AS kind, b.item_id AS itemId,
              i.product_sku AS sku, NULL AS location, NULL AS msu, ${SCAN_REQUIRED} AS scanRequired,
              b.level_path AS levelPath, 0 AS rank
         FROM barcodes b JOIN items i ON i.id = b.item_id WHERE b.barcode = @text
       UNION ALL SELECT 'slot', NULL, NULL, id, msu, 0, NULL, 1 FROM locations WHERE id = @text
       UNION ALL SELECT 'msu', NULL, NULL, id, msu, 0, NULL, 2 FROM locations WHERE msu = @text
       ORDER BY rank, location`,
    ),
    racks: sqlite.prepare<[], Pick<LocationRow, "msu">>("SELECT msu FROM racks"),
    // Work order (docs/architecture.md#pick): priority, then pick_before_time (none last), then arrival.
    picks: sqlite.prepare<[], Omit<PickCandidateRow, "scanRequired"> & { scanRequired: number }>(
      `SELECT sr.external_id AS externalServiceRequestId, l.external_id AS line, r.location, r.item_id AS itemId,
              min(r.quantity, l.expected - l.picked - l.short) AS quantity, sr.bin_id AS binId,
              ${SCAN_REQUIRED} AS scanRequired
         FROM racks rk JOIN locations loc ON loc.msu = rk.msu
         JOIN reservations r ON r.location = loc.id JOIN items i ON i.id = r.item_id
         JOIN pick_lines l ON l.id = r.line_id
         JOIN service_requests sr ON sr.id = l.request_id
        WHERE r.quantity > 0 AND l.expected - l.picked - l.short > 0
          AND sr.type = 'PICK' AND sr.state IN ('cancellation_locked', 'pick_started') AND sr.bin_id IS NOT NULL
        ORDER BY sr.priority_rank, sr.pick_before IS NULL, sr.pick_before, sr.id, l.position, r.location`,
    ),
    puts: sqlite.prepare<[], PutRow>(
      `SELECT id, external_id AS externalServiceRequestId, state, bin_id AS binId,
              expectations_json AS expectationsJson, attributes_json AS attributesJson
         FROM service_requests WHERE type = 'PUT' AND state IN ('staged', 'complete') ORDER BY id`,
    ),
    // Excess items do not settle what is expected (spec: put container states; services/put/put-expectations.ts).
    handled: sqlite.prepare<[number, number], { n: number }>(
      `SELECT coalesce(sum(quantity), 0) AS n FROM actuals
        WHERE request_id = ? AND item_id = ? AND state NOT IN ('back_excess_entities', 'front_excess_entities')`,
    ),
    audit: sqlite.prepare<[], Pick<AuditRow, "id" | "auditId" | "kq">>(
      "SELECT id, audit_id AS auditId, kq FROM audits WHERE status = 'started' ORDER BY id LIMIT 1",
    ),
    auditLines: sqlite.prepare<
      [number],
      Pick<AuditLineRow, "auditLineId" | "location" | "itemId" | "status">
    >(
      `SELECT audit_line_id AS auditLineId, location, item_id AS itemId, status FROM audit_lines
        WHERE audit_row_id = ? ORDER BY id`,
    ),
  };

  // the flag is set only where true, so work of other items looks as it always did
  const flagged = <T extends { scanRequired: number }>(
    row: T,
  ): Omit<T, "scanRequired"> & { scanRequired?: true } => {
    const { scanRequired, ...rest } = row;
    return scanRequired === 1 ? { ...rest, scanRequired: true } : rest;
  };

  return {
    /** The item whose barcode the text is, the slot it names, the slots of the MSU it names, in that order. */
    meanings: (text: string): MeaningRow[] => q.meanings.all({ text }).map(flagged) as MeaningRow[],
    /** The MSUs whose racks are presented at the station. */
    racks: (): string[] => q.racks.all().map((r) => r.msu),
    /** Pick work reserved at the slots of presented racks, in work order (requests already in a bin). */
    picks: (): PickCandidateRow[] => q.picks.all().map(flagged),
    /** Staged and complete puts (the ones a tote or item scan can be about). */
    puts: (): PutRow[] => q.puts.all(),
    handled: (requestId: number, itemId: number): number => q.handled.get(requestId, itemId)?.n ?? 0,
    startedAudit: () => q.audit.get(),
    auditLines: (auditRowId: number) => q.auditLines.all(auditRowId),
    /** Whether a transaction is open: what is read then may still roll back. */
    inTransaction: (): boolean => sqlite.inTransaction,
  };
}

export type ScanRepo = ReturnType<typeof createScanRepo>;
