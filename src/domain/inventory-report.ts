/**
 * The inventory report's CSV (docs/interface.md "Inventory report": a header row of the unique fields of each
 * product followed by `quantity`; sample columns product_sku, client_id, quantity). Pure: rows in, text out.
 */
import { canonicalValue, identifyingValues, uniqueKeysOf } from "./item.identity.js";
import type { ItemSchema } from "./item.schema.js";

export const INVENTORY_REPORT_TYPE = "inventory/GR";

export interface InventoryRow {
  schema: ItemSchema;
  attrs: Record<string, unknown>;
  /** Summed over every location holding the item. */
  quantity: number;
}

/** RFC 4180: a field with a comma, quote, CR or LF is quoted, quotes inside doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * Columns: the union of the unique attribute names of the products' schemas, `product_sku` first, the
 * others in the order they are first met; then `quantity`. A product leaves empty a column that is not
 * one of its own unique fields.
 * Lines end with CRLF (RFC 4180).
 */
export function inventoryCsv(rows: readonly InventoryRow[]): string {
  const columns = ["product_sku"];
  for (const row of rows) {
    for (const key of uniqueKeysOf(row.schema)) if (!columns.includes(key)) columns.push(key);
  }
  const lines = [[...columns, "quantity"].map(csvField).join(",")];
  for (const row of rows) {
    // only the product's own identifying fields, as its pdfa_values (docs/decisions.md#item-identity):
    // another product's unique field that this one merely carries says nothing about which item it is
    const own = identifyingValues(row.schema, row.attrs);
    const cells = columns.map((c) => {
      const v = own[c];
      return v === undefined || v === null ? "" : csvField(canonicalValue(v));
    });
    lines.push([...cells, String(row.quantity)].join(","));
  }
  return `${lines.join("\r\n")}\r\n`;
}
