import type { Sqlite } from "./open.js";
import type { SqlRow } from "./row.types.js";
import type { actuals, pickLines, reservations, serviceRequests } from "./tables.js";

/** Rows of service requests, their pick lines, reservations and actuals (prepared statements: hot path). */
export type RequestRow = SqlRow<typeof serviceRequests>;

export type LineRow = SqlRow<typeof pickLines>;

export type ReservationRow = SqlRow<typeof reservations>;

export type ActualRow = SqlRow<typeof actuals>;

const REQUEST_COLS = `id, external_id AS externalId, type, state, status, request_json AS requestJson,
  attributes_json AS attributesJson, expectations_json AS expectationsJson, is_pack AS isPack, bin_id AS binId,
  priority_rank AS priorityRank, pick_before AS pickBefore, pick_after AS pickAfter, execution_json AS executionJson,
  received_on AS receivedOn, created_on AS createdOn, updated_on AS updatedOn, state_cleared_on AS stateClearedOn`;
const LINE_COLS = `id, request_id AS requestId, external_id AS externalId, position, state, expected, picked, short,
  filters_json AS filtersJson, attributes_json AS attributesJson, expectation_ids_json AS expectationIdsJson,
  created_on AS createdOn, updated_on AS updatedOn`;
const ACTUAL_COLS = `id, request_id AS requestId, line_id AS lineId, state, location, item_id AS itemId, quantity,
  product_json AS productJson, product_id AS productId, context_json AS contextJson, created_on AS createdOn`;

/** `stateClearedOn` is the MQTT sync's bookkeeping (mqtt.repo.ts): a new request has none. */
export type NewRequest = Omit<RequestRow, "id" | "stateClearedOn">;
export type NewLine = Omit<LineRow, "id">;

// A request id already used for this type is left as it is: the caller reads that one (idempotent create).
const INSERT_REQUEST = `INSERT INTO service_requests (external_id, type, state, status, request_json, attributes_json,
    expectations_json, is_pack, bin_id, priority_rank, pick_before, pick_after, execution_json, received_on, created_on,
    updated_on)
  VALUES (@externalId, @type, @state, @status, @requestJson, @attributesJson, @expectationsJson, @isPack, @binId,
    @priorityRank, @pickBefore, @pickAfter, @executionJson, @receivedOn, @createdOn, @updatedOn)`;

/** Entity ids taken at once (see `nextEntityId`). */
const ENTITY_BLOCK = 256;

/** The repository's statements, prepared once. */
function prepareRequestStatements(sqlite: Sqlite) {
  return {
    insert: sqlite.prepare(`${INSERT_REQUEST} ON CONFLICT (type, external_id) DO NOTHING`),
    find: sqlite.prepare<[string, string], RequestRow>(
      `SELECT ${REQUEST_COLS} FROM service_requests WHERE type = ? AND external_id = ?`,
    ),
    findAnyType: sqlite.prepare<[string], RequestRow>(
      `SELECT ${REQUEST_COLS} FROM service_requests WHERE external_id = ?`,
    ),
    byId: sqlite.prepare<[number], RequestRow>(`SELECT ${REQUEST_COLS} FROM service_requests WHERE id = ?`),
    byStates: sqlite.prepare<[string, string], RequestRow>(
      `SELECT ${REQUEST_COLS} FROM service_requests WHERE type = ? AND state IN (SELECT value FROM json_each(?)) ORDER BY id`,
    ),
    inBin: sqlite.prepare<[string], RequestRow>(
      `SELECT ${REQUEST_COLS} FROM service_requests WHERE bin_id = ? ORDER BY id`,
    ),
    update: sqlite.prepare(
      `UPDATE service_requests SET state = @state, status = @status, bin_id = @binId, attributes_json = @attributesJson,
         expectations_json = @expectationsJson, is_pack = @isPack, priority_rank = @priorityRank, pick_before = @pickBefore,
         pick_after = @pickAfter, execution_json = @executionJson, updated_on = @updatedOn WHERE id = @id`,
    ),
    insertLine: sqlite.prepare(
      `INSERT INTO pick_lines (request_id, external_id, position, state, expected, picked, short, filters_json,
         attributes_json, expectation_ids_json, created_on, updated_on)
       VALUES (@requestId, @externalId, @position, @state, @expected, @picked, @short, @filtersJson, @attributesJson,
         @expectationIdsJson, @createdOn, @updatedOn)`,
    ),
    lines: sqlite.prepare<[number], LineRow>(
      `SELECT ${LINE_COLS} FROM pick_lines WHERE request_id = ? ORDER BY position`,
    ),
    updateLine: sqlite.prepare(
      "UPDATE pick_lines SET state = @state, picked = @picked, short = @short, updated_on = @updatedOn WHERE id = @id",
    ),
    deleteLines: sqlite.prepare("DELETE FROM pick_lines WHERE request_id = ?"),
    deleteLine: sqlite.prepare("DELETE FROM pick_lines WHERE id = ?"),
    reviseLine: sqlite.prepare(
      `UPDATE pick_lines SET state = @state, expected = @expected, filters_json = @filtersJson,
         attributes_json = @attributesJson, updated_on = @updatedOn WHERE id = @id`,
    ),
    addReservation: sqlite.prepare(
      `INSERT INTO reservations (line_id, location, item_id, quantity) VALUES (?, ?, ?, ?)
       ON CONFLICT(line_id, location, item_id) DO UPDATE SET quantity = quantity + excluded.quantity`,
    ),
    reservationsOfRequest: sqlite.prepare<[number], ReservationRow>(
      `SELECT r.line_id AS lineId, r.location, r.item_id AS itemId, r.quantity FROM reservations r
         JOIN pick_lines l ON l.id = r.line_id WHERE l.request_id = ? ORDER BY r.line_id, r.location, r.item_id`,
    ),
    setReservation: sqlite.prepare(
      "UPDATE reservations SET quantity = ? WHERE line_id = ? AND location = ? AND item_id = ?",
    ),
    deleteReservation: sqlite.prepare(
      "DELETE FROM reservations WHERE line_id = ? AND location = ? AND item_id = ?",
    ),
    requestsReservedAt: sqlite.prepare<[string], Pick<LineRow, "requestId">>(
      `SELECT DISTINCT l.request_id AS requestId FROM reservations r JOIN pick_lines l ON l.id = r.line_id
        WHERE r.location IN (SELECT value FROM json_each(?)) ORDER BY l.request_id`,
    ),
    insertActual: sqlite.prepare(
      `INSERT INTO actuals (id, request_id, line_id, state, location, item_id, quantity, product_json, product_id,
         context_json, created_on)
       VALUES (@id, @requestId, @lineId, @state, @location, @itemId, @quantity, @productJson, @productId, @contextJson, @createdOn)`,
    ),
    actuals: sqlite.prepare<[number], ActualRow>(
      `SELECT ${ACTUAL_COLS} FROM actuals WHERE request_id = ? ORDER BY id`,
    ),
    // a captured value in any actual's product attributes (docs/capture.md#in-the-actuals)
    capturedValue: sqlite.prepare<[string, string], { one: number }>(
      "SELECT 1 AS one FROM actuals WHERE json_extract(product_json, ?) = ? LIMIT 1",
    ),
    insertTransaction: sqlite.prepare(
      "INSERT INTO request_transactions (request_id, kind, body_json, outcome, created_on) VALUES (?, ?, ?, ?, ?)",
    ),
    // AUTOINCREMENT keeps the largest id ever inserted in sqlite_sequence: the end of the last block taken.
    lastEntity: sqlite.prepare<[], { seq: number }>(
      "SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'entity_ids'), 0) AS seq",
    ),
    takeEntities: sqlite.prepare("INSERT INTO entity_ids (id, kind) VALUES (?, ?)"),
    nextHeld: sqlite.prepare<[{ now: number }], { at: number | null }>(
      `SELECT min(at) AS at FROM (
         SELECT min(pick_after) AS at FROM service_requests
          WHERE type = 'PICK' AND state = 'fulfillable' AND bin_id IS NULL AND priority_rank > 0 AND pick_after > @now
         UNION ALL
         SELECT min(pick_before) FROM service_requests
          WHERE type = 'PICK' AND state IN ('created', 'fulfillable', 'cancellation_locked') AND priority_rank > 0
            AND pick_before > @now)`,
    ),
  };
}

export function createRequestsRepo(sqlite: Sqlite) {
  const q = prepareRequestStatements(sqlite);

  /**
   * Container and product ids are handed out from memory, from a block of ENTITY_BLOCK ids whose last id
   * is written to entity_ids when the block is taken (one row per block instead of one per id): after a
   * restart the next block starts above it, so an id is never handed out twice. The unit of work calls
   * `forget` on a rollback, which may have undone the block's row; the ids after it are then skipped.
   */
  let nextEntity: number | undefined;
  let blockEnd = 0;

  function insertUnlessTaken(row: NewRequest): number | null {
    const r = q.insert.run(row);
    return r.changes ? Number(r.lastInsertRowid) : null;
  }

  return {
    /** The new request's id, or null when its type and externalId are taken (then nothing is written). */
    insertUnlessTaken,
    insert(row: NewRequest): number {
      const id = insertUnlessTaken(row);
      if (id === null) throw new Error(`${row.type} request '${row.externalId}' exists`);
      return id;
    },
    find: (type: "PICK" | "PUT", externalId: string): RequestRow | undefined => q.find.get(type, externalId),
    findAnyType: (externalId: string): RequestRow[] => q.findAnyType.all(externalId),
    byId: (id: number): RequestRow | undefined => q.byId.get(id),
    byStates: (type: "PICK" | "PUT", states: readonly string[]): RequestRow[] =>
      q.byStates.all(type, JSON.stringify(states)),
    inBin: (binId: string): RequestRow[] => q.inBin.all(binId),
    update(row: RequestRow): void {
      q.update.run(row);
    },
    insertLine: (row: NewLine): number => Number(q.insertLine.run(row).lastInsertRowid),
    lines: (requestId: number): LineRow[] => q.lines.all(requestId),
    updateLine(row: LineRow): void {
      q.updateLine.run(row);
    },
    deleteLines: (requestId: number) => q.deleteLines.run(requestId),
    deleteLine: (lineId: number) => q.deleteLine.run(lineId),
    /** A line's expectation changed by a modify (before any pick: nothing else of it moves). */
    reviseLine(row: LineRow): void {
      q.reviseLine.run(row);
    },
    addReservation: (r: ReservationRow) => q.addReservation.run(r.lineId, r.location, r.itemId, r.quantity),
    reservationsOfRequest: (requestId: number): ReservationRow[] => q.reservationsOfRequest.all(requestId),
    /** Sets a reservation's quantity; zero removes it. */
    setReservation(r: ReservationRow): void {
      if (r.quantity > 0) q.setReservation.run(r.quantity, r.lineId, r.location, r.itemId);
      else q.deleteReservation.run(r.lineId, r.location, r.itemId);
    },
    requestsReservedAt: (locations: string[]): number[] =>
      locations.length ? q.requestsReservedAt.all(JSON.stringify(locations)).map((r) => r.requestId) : [],
    insertActual(row: ActualRow): void {
      q.insertActual.run(row);
    },
    actuals: (requestId: number): ActualRow[] => q.actuals.all(requestId),
    /** Whether an actual of the station's database reports `value` under the product attribute `attr`. */
    captured: (attr: string, value: string): boolean =>
      q.capturedValue.get(`$."${attr}"`, value) !== undefined,
    insertTransaction: (
      requestId: number,
      kind: "cancel" | "modify",
      bodyJson: string,
      outcome: "success" | "failure",
      now: number,
    ): number => Number(q.insertTransaction.run(requestId, kind, bodyJson, outcome, now).lastInsertRowid),
    /** The earliest pick_after_time or pick_before_time still ahead among waiting picks (once, at start). */
    nextHeldRelease: (now: number): number | null => q.nextHeld.get({ now })?.at ?? null,
    /** A new container or product id, never reused (entity_ids). */
    nextEntityId(kind: "container" | "product"): number {
      if (nextEntity === undefined || nextEntity > blockEnd) {
        const first = nextEntity ?? (q.lastEntity.get()?.seq ?? 0) + 1;
        blockEnd = first + ENTITY_BLOCK - 1;
        q.takeEntities.run(blockEnd, kind);
        nextEntity = first;
      }
      return nextEntity++;
    },
    /** A rollback may have undone the block's row: the next id is read again. */
    forget(): void {
      nextEntity = undefined;
    },
  };
}

export type RequestsRepo = ReturnType<typeof createRequestsRepo>;
