/**
 * A reserved pick line on a presented rack as the operator screen lists it: what the operator needs to
 * find the item (SKU, description, image), how many to pick and into which bin. Read by the screen's
 * repository (db/screen.repo.ts) and derived into the screen's task (station/screen/state/task.ts).
 */
export interface ScreenPickRow {
  order: string;
  line: string;
  slot: string;
  itemId: number;
  sku: string;
  description: string | null;
  imageUrl: string | null;
  quantity: number;
  bin: string;
  /** the item's `scan_required`: every unit is scanned */
  scanRequired: boolean;
}
