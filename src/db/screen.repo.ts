import type {
  ScreenAuditRow,
  ScreenItem,
  ScreenPickRow,
  ScreenPutRow,
  ScreenSlotRow,
} from "../domain/screen-rows.js";
import type { LitWork, LostWork } from "../domain/seat-work.js";
import type { Sqlite } from "./open.js";

/**
 * Reads of the operator screen (docs/station.md#operator-screen): the reserved pick lines on the presented
 * racks with what the operator needs to find the item (SKU, description, image), the staged totes
 * and what they still expect, the audit's lines with their SKUs, the orders in each bin, and the
 * operators seen at the station. One prepared statement each, grouped by what they read; read after
 * every change a screen shows. The rows are domain/screen-rows.ts's, which the screen passes to its page
 * as they are.
 */
/** A pick row as SQLite returns it: `scanRequired` is 0 or 1. */
type PickSqlRow = Omit<ScreenPickRow, "scanRequired" | "pack"> & { scanRequired: number; pack: number };

interface PutRequestRow {
  id: number;
  putId: string;
  state: string;
  bin: string | null;
  expectationsJson: string | null;
  attributesJson: string;
}

/**
 * An item as the screen names it (domain/screen-rows.ts `ScreenItem`), from `items i`: one fragment for
 * the pick and the put reads. The audit's lines leave the image out: it is shown only through
 * station/screen/image-policy.ts, which filters pick lines and put items.
 */
const ITEM = `i.product_sku AS sku, json_extract(i.doc, '$.description') AS description,
  json_extract(i.doc, '$.imageUrl') AS imageUrl`;
const SCAN_REQUIRED = "json_type(i.doc, '$.productAttributes.scan_required') = 'true'";
/** Put actuals that settle what a put expects (excess items do not; services/put/put-expectations.ts). */
const SETTLING = "state NOT IN ('back_excess_entities', 'front_excess_entities')";

interface OrderRow {
  bin: string;
  id: string;
  type: "PICK" | "PUT";
  state: string;
}

/** The pick lines on the presented racks, whether picks wait for a rack, and the racks presented. */
function pickReads(sqlite: Sqlite) {
  // the same work order as the engine's (scan.repo.ts), over every item at the presented slots
  const pickLines = sqlite.prepare<[], PickSqlRow>(
    `SELECT sr.external_id AS "order", l.external_id AS line, r.location AS slot, r.item_id AS itemId,
            ${ITEM}, min(r.quantity, l.expected - l.picked - l.short) AS quantity,
            sr.bin_id AS bin, ${SCAN_REQUIRED} AS scanRequired, sr.is_pack AS pack
       FROM racks rk JOIN locations loc ON loc.msu = rk.msu
       JOIN reservations r ON r.location = loc.id
       JOIN pick_lines l ON l.id = r.line_id
       JOIN service_requests sr ON sr.id = l.request_id
       JOIN items i ON i.id = r.item_id
      WHERE r.quantity > 0 AND l.expected - l.picked - l.short > 0
        AND sr.type = 'PICK' AND sr.state IN ('cancellation_locked', 'pick_started') AND sr.bin_id IS NOT NULL
      ORDER BY sr.priority_rank, sr.pick_before IS NULL, sr.pick_before, sr.id, l.position, r.location
      LIMIT 100`,
  );
  const pickWaiting = sqlite.prepare<[], { one: number }>(
    `SELECT 1 AS one FROM service_requests WHERE type = 'PICK' AND bin_id IS NOT NULL
        AND state IN ('fulfillable', 'cancellation_locked', 'pick_started') LIMIT 1`,
  );
  const racks = sqlite.prepare<[], { msu: string }>("SELECT msu FROM racks ORDER BY presented_at, msu");
  return {
    pickLines: (): ScreenPickRow[] =>
      pickLines.all().map(({ pack, ...r }) => ({
        ...r,
        scanRequired: r.scanRequired === 1,
        ...(pack === 1 ? { pack: true } : {}),
      })),
    pickWaiting: (): boolean => pickWaiting.get() !== undefined,
    racks: (): string[] => racks.all().map((r) => r.msu),
  };
}

/** The requests each bin holds. */
function orderReads(sqlite: Sqlite) {
  const orders = sqlite.prepare<[], OrderRow>(
    "SELECT bin_id AS bin, external_id AS id, type, state FROM service_requests WHERE bin_id IS NOT NULL ORDER BY id",
  );
  return {
    /** The requests each bin holds, by bin. */
    orders() {
      const out: Record<string, Array<{ id: string; type: "PICK" | "PUT"; state: string }>> = {};
      for (const { bin, ...o } of orders.all()) {
        const list = out[bin] ?? [];
        list.push(o);
        out[bin] = list;
      }
      return out;
    },
  };
}

/** The staged (and complete) puts' products, each with what is still to put. */
function putReads(sqlite: Sqlite) {
  const puts = sqlite.prepare<[], PutRequestRow>(
    `SELECT id, external_id AS putId, state, bin_id AS bin, expectations_json AS expectationsJson,
            attributes_json AS attributesJson
       FROM service_requests WHERE type = 'PUT' AND state IN ('staged', 'complete') ORDER BY id`,
  );
  const handled = sqlite.prepare<[number], { itemId: number; n: number }>(
    `SELECT item_id AS itemId, sum(quantity) AS n FROM actuals WHERE request_id = ? AND ${SETTLING} GROUP BY item_id`,
  );
  const item = sqlite.prepare<[number], ScreenItem>(`SELECT ${ITEM} FROM items i WHERE i.id = ?`);

  function putItems(): ScreenPutRow[] {
    return puts.all().flatMap((p) => {
      const exp = JSON.parse(p.expectationsJson ?? "null") as {
        containers?: Array<{ products: Array<{ itemId: number; productQuantity: number }> }>;
      } | null;
      const attrs = JSON.parse(p.attributesJson) as { tote_id?: unknown } | null;
      const expected = new Map<number, number>();
      for (const c of exp?.containers ?? [])
        for (const x of c.products) expected.set(x.itemId, (expected.get(x.itemId) ?? 0) + x.productQuantity);
      const done = new Map(handled.all(p.id).map((h) => [h.itemId, h.n]));
      return [...expected].map(([itemId, n]) => ({
        putId: p.putId,
        tote: typeof attrs?.tote_id === "string" ? attrs.tote_id : null,
        bin: p.bin,
        state: p.state,
        itemId,
        ...(item.get(itemId) ?? { sku: String(itemId), description: null, imageUrl: null }),
        expected: n,
        left: Math.max(0, n - (done.get(itemId) ?? 0)),
      }));
    });
  }
  return { putItems };
}

/** The audit being counted, with its lines and their SKUs. */
function auditReads(sqlite: Sqlite) {
  const audit = sqlite.prepare<[], { id: number; auditId: string; kq: number }>(
    "SELECT id, audit_id AS auditId, kq FROM audits WHERE status = 'started' ORDER BY id LIMIT 1",
  );
  const queued = sqlite
    .prepare<[], string>(
      "SELECT audit_id FROM audits WHERE status IN ('queued', 'sent_for_reaudit') ORDER BY id LIMIT 1",
    )
    .pluck();
  const auditLines = sqlite.prepare<[number], Omit<ScreenAuditRow, "open"> & { status: string }>(
    `SELECT al.audit_line_id AS auditLineId, al.location, i.product_sku AS sku,
            json_extract(i.doc, '$.description') AS description, al.status
       FROM audit_lines al JOIN items i ON i.id = al.item_id WHERE al.audit_row_id = ? ORDER BY al.id`,
  );
  return {
    audit(): { auditId: string; kq: boolean; lines: ScreenAuditRow[] } | null {
      const a = audit.get();
      if (!a) return null;
      const lines = auditLines
        .all(a.id)
        .map(({ status, ...l }) => ({ ...l, open: status === "auditline_started" }));
      return { auditId: a.auditId, kq: a.kq === 1, lines };
    },
    /** The first audit queued (or sent for re-audit) and not begun: a seat in audit mode can begin it. */
    queuedAudit(): string | null {
      return queued.get() ?? null;
    },
  };
}

/** The operators seen at the station (the login buttons) and each one's language. */
function operatorReads(sqlite: Sqlite) {
  const operators = sqlite.prepare<[number], { name: string }>(
    "SELECT name FROM screen_operators ORDER BY last_login_at DESC, name LIMIT ?",
  );
  const operatorLang = sqlite.prepare<[string], { lang: string | null }>(
    "SELECT lang FROM screen_operators WHERE name = ?",
  );
  const sawOperator = sqlite.prepare(
    `INSERT INTO screen_operators (name, lang, last_login_at) VALUES (?, NULL, ?)
       ON CONFLICT (name) DO UPDATE SET last_login_at = excluded.last_login_at`,
  );
  const setLang = sqlite.prepare("UPDATE screen_operators SET lang = ? WHERE name = ?");
  return {
    operators: (limit: number): string[] => operators.all(limit).map((r) => r.name),
    operatorLang: (name: string): string | null => operatorLang.get(name)?.lang ?? null,
    sawOperator: (name: string, at: number): void => {
      sawOperator.run(name, at);
    },
    setOperatorLang: (name: string, lang: string | null): void => {
      setLang.run(lang, name);
    },
  };
}

/**
 * What the screen's notices and rack face read besides the rows: every known slot of the presented
 * racks (one grid per rack), a request's state (was it cancelled?) and an item's SKU.
 */
function stateReads(sqlite: Sqlite) {
  const rackSlots = sqlite.prepare<[], { id: string }>(
    "SELECT l.id FROM locations l JOIN racks rk ON rk.msu = l.msu ORDER BY l.id LIMIT 5000",
  );
  const requestState = sqlite.prepare<[string, string], { state: string }>(
    "SELECT state FROM service_requests WHERE type = ? AND external_id = ?",
  );
  const sku = sqlite.prepare<[number], { sku: string }>("SELECT product_sku AS sku FROM items WHERE id = ?");
  return {
    rackSlots: (): string[] => rackSlots.all().map((r) => r.id),
    requestState: (type: "PICK" | "PUT", id: string): string | null =>
      requestState.get(type, id)?.state ?? null,
    sku: (itemId: number): string | null => sku.get(itemId)?.sku ?? null,
  };
}

/** The presented racks' slots and the items stocked in each (the put card's suggested slot). */
function slotReads(sqlite: Sqlite) {
  const slots = sqlite.prepare<[], ScreenSlotRow>(
    `SELECT loc.id AS slot, s.item_id AS itemId
       FROM racks rk JOIN locations loc ON loc.msu = rk.msu
       LEFT JOIN stock s ON s.location = loc.id AND s.quantity > 0
      ORDER BY rk.presented_at, rk.msu, loc.id, s.item_id
      LIMIT 2000`,
  );
  return { putSlots: (): ScreenSlotRow[] => slots.all() };
}

/**
 * The pick work each seat has lit and what a restart left to say (docs/station.md#after-a-restart):
 * the screen's own memory, one statement each, like the operators seen.
 */
function seatWorkReads(sqlite: Sqlite) {
  const put = sqlite.prepare<[string, string, string, number]>(
    "INSERT OR REPLACE INTO seat_work (seat, kind, work, at) VALUES (?, ?, ?, ?)",
  );
  const drop = sqlite.prepare<[string, string]>("DELETE FROM seat_work WHERE seat = ? AND kind = ?");
  const all = sqlite.prepare<[string], { seat: string; work: string }>(
    "SELECT seat, work FROM seat_work WHERE kind = ? ORDER BY seat",
  );
  const picked = sqlite.prepare<[string, string], { picked: number }>(
    `SELECT l.picked FROM pick_lines l JOIN service_requests sr ON sr.id = l.request_id
      WHERE sr.type = 'PICK' AND sr.external_id = ? AND l.external_id = ?`,
  );
  const putDone = sqlite.prepare<[string, number], { n: number | null }>(
    `SELECT sum(a.quantity) AS n FROM actuals a JOIN service_requests sr ON sr.id = a.request_id
      WHERE sr.type = 'PUT' AND sr.external_id = ? AND a.item_id = ? AND a.${SETTLING}`,
  );
  const parse = <T>(rows: Array<{ seat: string; work: string }>) =>
    rows.map((r) => ({ seat: r.seat, work: JSON.parse(r.work) as T }));
  return {
    /** Keeps (or, with null, forgets) what a seat has lit. */
    keepLit(seat: string, work: LitWork | null, at: number): void {
      if (work) put.run(seat, "lit", JSON.stringify(work), at);
      else drop.run(seat, "lit");
    },
    litWork: () => parse<LitWork>(all.all("lit")),
    /** What a restart did to a seat's lit work, kept until acknowledged; its lit record goes. */
    keepLost(seat: string, work: LostWork, at: number): void {
      sqlite.transaction(() => {
        put.run(seat, "lost", JSON.stringify(work), at);
        drop.run(seat, "lit");
      })();
    },
    lostWork: () => parse<LostWork>(all.all("lost")),
    /** The operator has read what the restart did: forgotten. Whether there was anything. */
    forgetLost: (seat: string): boolean => drop.run(seat, "lost").changes > 0,
    /** A pick line's picked count, or a put item's units put or settled; 0 when it is gone. */
    done(work: Pick<LitWork, "kind" | "order" | "line" | "itemId">): number {
      if (work.kind === "put") return putDone.get(work.order, work.itemId)?.n ?? 0;
      return picked.get(work.order, work.line)?.picked ?? 0;
    },
  };
}

export function createScreenRepo(sqlite: Sqlite) {
  return {
    ...stateReads(sqlite),
    ...seatWorkReads(sqlite),
    ...slotReads(sqlite),
    ...pickReads(sqlite),
    ...orderReads(sqlite),
    ...putReads(sqlite),
    ...auditReads(sqlite),
    ...operatorReads(sqlite),
  };
}

export type ScreenRepo = ReturnType<typeof createScreenRepo>;
