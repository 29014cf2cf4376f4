/**
 * The pick work a seat has lit, as kept across a restart, and what a restart did to it
 * (docs/station.md#after-a-restart; derived in station/seat-work.ts, kept by db/screen.repo.ts).
 */
export interface LitWork {
  /** a pick line (absent: older records), or a put's item counted from a tote */
  kind?: "pick" | "put";
  /** the pick's order, or the put */
  order: string;
  /** the pick's line, or the put item's SKU */
  line: string;
  slot: string;
  bin: string;
  itemId: number;
  /** the units lit */
  quantity: number;
  /** units of a scan-required pick scanned so far (not recorded until the pick) */
  scanned: number;
  /** the tote of a put */
  tote?: string | null;
  /** the line's picked count when it was lit (a put: the item's units put or settled then) */
  pickedBefore: number;
}

/** What a restart did to lit work: `recorded` of its `quantity` units were picked before it. */
export interface LostWork extends LitWork {
  recorded: number;
}
