/**
 * The rows the operator screen lists, as its repository (db/screen.repo.ts) reads them. The screen's state
 * passes them to the page as they are, adding only what is the screen's own (whether a line is lit, an
 * audit line's running count): a field the screen shows is declared here once, read in db/screen.repo.ts
 * and drawn by the page (docs/station.md#operator-screen).
 */

/** An item as the screen names it; every pick line and put item carries it (the repository's `ITEM`). */
export interface ScreenItem {
  sku: string;
  description: string | null;
  /** shown only from `station.imageHosts` (station/screen/image-policy.ts) */
  imageUrl: string | null;
}

/** A reserved pick line on a presented rack: where the item is, how many to pick, into which bin. */
export interface ScreenPickRow extends ScreenItem {
  order: string;
  line: string;
  slot: string;
  itemId: number;
  quantity: number;
  bin: string;
  /** the item's `scan_required`: every unit is scanned */
  scanRequired: boolean;
  /** a pick+pack order's line: its bin is a box ("Box full", docs/station.md#bin-full-box-full) */
  pack?: boolean;
}

/** One product a staged (or complete) put expects, and how many of it are still to put. */
export interface ScreenPutRow extends ScreenItem {
  putId: string;
  tote: string | null;
  bin: string | null;
  state: string;
  itemId: number;
  expected: number;
  left: number;
}

/** A line of the audit being counted (blind: no expected quantity). */
export interface ScreenAuditRow extends Pick<ScreenItem, "sku" | "description"> {
  auditLineId: string;
  location: string;
  /** still to count (`auditline_started`) */
  open: boolean;
}

/**
 * A slot of a presented rack and one item stocked there (none: `itemId` null), for the put card's
 * suggested slot (docs/station.md#paths-of-a-shift).
 */
export interface ScreenSlotRow {
  slot: string;
  itemId: number | null;
}
