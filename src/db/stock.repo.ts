import type { Sqlite } from "./open.js";
import type { SqlRow } from "./row.types.js";
import type { locations, racks, stock } from "./tables.js";

export type StockRowView = SqlRow<typeof stock>;

type LocationRow = SqlRow<typeof locations>;

/** Locations (slots in MSUs), stock per (location, item), racks presented at the station. */
export function createStockRepo(sqlite: Sqlite) {
  const q = {
    upsertLocation: sqlite.prepare(
      "INSERT INTO locations (id, msu) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET msu = excluded.msu",
    ),
    location: sqlite.prepare<[string], LocationRow>("SELECT id, msu FROM locations WHERE id = ?"),
    locationsOfMsu: sqlite.prepare<[string], Pick<LocationRow, "id">>(
      "SELECT id FROM locations WHERE msu = ? ORDER BY id",
    ),
    stockAt: sqlite.prepare<[string, number], StockRowView>(
      "SELECT location, item_id AS itemId, quantity, reserved FROM stock WHERE location = ? AND item_id = ?",
    ),
    // Free stock of items (quantity above reserved); the slots audits hold are left out by the caller
    // (audits.repo.ts lockedLocations). The common pick line names one item: a plain index lookup.
    stockOfItem: sqlite.prepare<[number], StockRowView>(
      `SELECT location, item_id AS itemId, quantity, reserved FROM stock
        WHERE item_id = ? AND quantity > reserved ORDER BY location`,
    ),
    stockOfItems: sqlite.prepare<[string], StockRowView>(
      `SELECT location, item_id AS itemId, quantity, reserved FROM stock
        WHERE item_id IN (SELECT value FROM json_each(?)) AND quantity > reserved ORDER BY location, item_id`,
    ),
    stockAtLocations: sqlite.prepare<[string], StockRowView>(
      `SELECT location, item_id AS itemId, quantity, reserved FROM stock
        WHERE location IN (SELECT value FROM json_each(?)) AND quantity > 0 ORDER BY location, item_id`,
    ),
    addStock: sqlite.prepare(
      `INSERT INTO stock (location, item_id, quantity, reserved) VALUES (?, ?, ?, 0)
       ON CONFLICT(location, item_id) DO UPDATE SET quantity = quantity + excluded.quantity`,
    ),
    setQuantity: sqlite.prepare("UPDATE stock SET quantity = ? WHERE location = ? AND item_id = ?"),
    reserve: sqlite.prepare("UPDATE stock SET reserved = reserved + ? WHERE location = ? AND item_id = ?"),
    presentRack: sqlite.prepare(
      "INSERT INTO racks (msu, presented_at) VALUES (?, ?) ON CONFLICT(msu) DO UPDATE SET presented_at = excluded.presented_at",
    ),
    removeRack: sqlite.prepare("DELETE FROM racks WHERE msu = ?"),
    racks: sqlite.prepare<[], SqlRow<typeof racks>>(
      "SELECT msu, presented_at AS presentedAt FROM racks ORDER BY presented_at, msu",
    ),
    isPresented: sqlite.prepare<[string], { one: number }>(
      "SELECT 1 AS one FROM locations l JOIN racks r ON r.msu = l.msu WHERE l.id = ?",
    ),
  };

  return {
    upsertLocation: (id: string, msu: string) => q.upsertLocation.run(id, msu),
    location: (id: string) => q.location.get(id),
    locationsOfMsu: (msu: string): string[] => q.locationsOfMsu.all(msu).map((r) => r.id),
    stockAt: (location: string, itemId: number) => q.stockAt.get(location, itemId),
    /** Rows with free stock (quantity above reserved) for any of the items, by location and item. */
    freeStockOf(itemIds: readonly number[]): StockRowView[] {
      if (itemIds.length === 1) return q.stockOfItem.all(itemIds[0] as number);
      return itemIds.length ? q.stockOfItems.all(JSON.stringify(itemIds)) : [];
    },
    stockAtLocations: (ids: string[]): StockRowView[] =>
      ids.length ? q.stockAtLocations.all(JSON.stringify(ids)) : [],
    add(location: string, itemId: number, quantity: number): void {
      q.addStock.run(location, itemId, quantity);
    },
    setQuantity(location: string, itemId: number, quantity: number): void {
      q.setQuantity.run(quantity, location, itemId);
    },
    /** Positive to reserve, negative to release. */
    reserve(location: string, itemId: number, delta: number): void {
      q.reserve.run(delta, location, itemId);
    },
    presentRack: (msu: string, now: number) => q.presentRack.run(msu, now),
    removeRack: (msu: string): boolean => q.removeRack.run(msu).changes > 0,
    racks: () => q.racks.all(),
    isPresented: (location: string): boolean => q.isPresented.get(location) !== undefined,
  };
}

export type StockRepo = ReturnType<typeof createStockRepo>;
