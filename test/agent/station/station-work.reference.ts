/**
 * The station engine's lookups answered the plain way, straight from the tables on every call: the
 * reference the lookups over the station's work in memory (src/services/scan-lookup/) must agree with.
 */
import type { Sqlite } from "../../../src/db/open.js";
import type { ScanMeaning } from "../../../src/services/scan-lookup/scan-lookup.service.js";

interface PickRow {
  externalServiceRequestId: string;
  line: string;
  location: string;
  itemId: number;
  quantity: number;
  binId: string;
}

interface PutRow {
  id: number;
  externalServiceRequestId: string;
  state: string;
  binId: string | null;
  expectationsJson: string | null;
  attributesJson: string;
}

interface Expected {
  containers: Array<{ products: Array<{ itemId: number; sku: string; productQuantity: number }> }>;
}

export const PICK_WORK_SQL = `SELECT sr.external_id AS externalServiceRequestId, l.external_id AS line, r.location,
    r.item_id AS itemId, min(r.quantity, l.expected - l.picked - l.short) AS quantity, sr.bin_id AS binId
   FROM racks rk JOIN locations loc ON loc.msu = rk.msu
   JOIN reservations r ON r.location = loc.id
   JOIN pick_lines l ON l.id = r.line_id
   JOIN service_requests sr ON sr.id = l.request_id
  WHERE (r.item_id = ? OR r.location = ?) AND r.quantity > 0 AND l.expected - l.picked - l.short > 0
    AND sr.type = 'PICK' AND sr.state IN ('cancellation_locked', 'pick_started') AND sr.bin_id IS NOT NULL
  ORDER BY sr.priority_rank, sr.pick_before IS NULL, sr.pick_before, sr.id, l.position, r.location`;

export function referenceLookup(sqlite: Sqlite) {
  const one = <T>(sql: string, ...args: unknown[]) => sqlite.prepare(sql).get(...args) as T | undefined;
  const all = <T>(sql: string, ...args: unknown[]) => sqlite.prepare(sql).all(...args) as T[];
  const toteOf = (json: string) => {
    const a = JSON.parse(json) as { tote_id?: unknown } | null;
    return typeof a?.tote_id === "string" ? a.tote_id : null;
  };
  const puts = () =>
    all<PutRow>(`SELECT id, external_id AS externalServiceRequestId, state, bin_id AS binId,
        expectations_json AS expectationsJson, attributes_json AS attributesJson
       FROM service_requests WHERE type = 'PUT' AND state IN ('staged', 'complete') ORDER BY id`);
  const picks = (itemId: number, location: string) => all<PickRow>(PICK_WORK_SQL, itemId, location);
  const presented = (msu: string) => one("SELECT 1 FROM racks WHERE msu = ?", msu) !== undefined;
  const handled = (id: number, itemId: number) =>
    one<{ n: number }>(
      `SELECT coalesce(sum(quantity), 0) AS n FROM actuals WHERE request_id = ? AND item_id = ?
          AND state NOT IN ('back_excess_entities', 'front_excess_entities')`,
      id,
      itemId,
    )?.n ?? 0;

  function meanings(text: string): ScanMeaning[] {
    const out: ScanMeaning[] = [];
    const item = one<{ itemId: number; sku: string }>(
      "SELECT b.item_id AS itemId, i.product_sku AS sku FROM barcodes b JOIN items i ON i.id = b.item_id WHERE b.barcode = ?",
      text,
    );
    if (item) out.push({ kind: "item", ...item });
    const slot = one<{ location: string; msu: string }>(
      "SELECT id AS location, msu FROM locations WHERE id = ?",
      text,
    );
    if (slot) out.push({ kind: "slot", ...slot, presented: presented(slot.msu) });
    const slots = all<{ id: string }>("SELECT id FROM locations WHERE msu = ? ORDER BY id", text).map(
      (r) => r.id,
    );
    if (slots.length) out.push({ kind: "msu", msu: text, locations: slots, presented: presented(text) });
    for (const p of puts())
      if (toteOf(p.attributesJson) === text)
        out.push({
          kind: "tote",
          externalServiceRequestId: p.externalServiceRequestId,
          state: p.state,
          binId: p.binId,
        });
    return out;
  }

  return {
    mode: () => one<{ mode: string }>("SELECT mode FROM station_state WHERE id = 1")?.mode,
    user: (seat: string) =>
      one<{ u: string | null }>("SELECT user_name AS u FROM seats WHERE seat = ?", seat)?.u ?? null,
    meanings,
    picks(found: readonly ScanMeaning[]) {
      const item = found.find((m) => m.kind === "item");
      const slot = found.find((m) => m.kind === "slot");
      return item || slot ? picks(item?.itemId ?? -1, slot?.location ?? "") : [];
    },
    puts(found: readonly ScanMeaning[]) {
      const item = found.find((m) => m.kind === "item");
      if (!item) return [];
      return puts()
        .filter((p) => p.state === "staged")
        .flatMap((p) => {
          const exp = JSON.parse(p.expectationsJson ?? "null") as Expected | null;
          const products = (exp?.containers ?? [])
            .flatMap((c) => c.products)
            .filter((x) => x.itemId === item.itemId);
          const first = products[0];
          if (!first) return [];
          const expected = products.reduce((n, x) => n + x.productQuantity, 0);
          return [
            {
              externalServiceRequestId: p.externalServiceRequestId,
              sku: first.sku,
              itemId: item.itemId,
              left: Math.max(0, expected - handled(p.id, item.itemId)),
              binId: p.binId,
              toteId: toteOf(p.attributesJson),
            },
          ];
        });
    },
    audit() {
      const a = one<{ id: number; auditId: string; kq: number }>(
        "SELECT id, audit_id AS auditId, kq FROM audits WHERE status = 'started' ORDER BY id LIMIT 1",
      );
      if (!a) return null;
      const lines = all<{ auditLineId: string; location: string; itemId: number; status: string }>(
        `SELECT audit_line_id AS auditLineId, location, item_id AS itemId, status FROM audit_lines
          WHERE audit_row_id = ? ORDER BY id`,
        a.id,
      );
      return {
        auditId: a.auditId,
        kq: a.kq === 1,
        lines: lines.map((l) => ({
          auditLineId: l.auditLineId,
          location: l.location,
          itemId: l.itemId,
          open: l.status === "auditline_started",
        })),
      };
    },
    bins() {
      const released = new Map(
        puts().flatMap((p) => (p.state === "complete" ? [[p.binId, p.externalServiceRequestId]] : [])),
      );
      return all<{ id: string; state: string; printState: string }>(
        "SELECT id, state, print_state AS printState FROM bins ORDER BY length(id), id",
      ).map((b) => ({ ...b, completePut: released.get(b.id) ?? null }));
    },
    putState: (id: string) => puts().find((p) => p.externalServiceRequestId === id)?.state ?? null,
    /** Every pick work at presented slots (for choosing what to pick next). */
    allPicks: () => all<PickRow>(PICK_WORK_SQL.replace("(r.item_id = ? OR r.location = ?) AND ", "")),
    /** Every PUT request: id, state and the SKUs it expects. */
    allPuts: () =>
      all<{ id: string; state: string; exp: string }>(
        "SELECT external_id AS id, state, expectations_json AS exp FROM service_requests WHERE type = 'PUT'",
      ).map((p) => ({
        id: p.id,
        state: p.state,
        skus: (JSON.parse(p.exp) as Expected).containers.flatMap((c) => c.products.map((x) => x.sku)),
      })),
    pickStillThere: (p: PickRow) =>
      picks(-1, p.location).some(
        (c) =>
          c.externalServiceRequestId === p.externalServiceRequestId &&
          c.line === p.line &&
          c.quantity >= p.quantity,
      ),
  };
}
