/**
 * All-or-nothing allocation of a pick request against free stock (docs/architecture.md#pick: "every line's
 * filter_parameters resolve to products; free quantity at reachable locations covers the line → stock
 * reserved, fulfillable, or not_fulfillable"). Either every line is covered and the reservations are
 * returned, or nothing is reserved and the first line that cannot be covered is named.
 *
 * Choice of stock for a line, so that racks are brought to the station as few times as possible:
 *  1. a single location whose free stock (over the line's candidate items) covers the whole line, the
 *     smallest such location first (best fit keeps large stocks whole for large lines);
 *  2. otherwise the fewest locations: the largest locations first, and for the last part the smallest
 *     location that still covers what remains.
 * Within a location the candidate item with the most free stock is taken first. Every tie is broken by
 * location id, then item id (code-unit order), so the same input always gives the same reservations.
 */

export interface LineDemand {
  /** the pick line's externalServiceRequestId */
  lineId: string;
  /** item ids the line's filter_parameters resolved to */
  candidates: readonly string[];
  /** eaches to pick, a positive integer */
  quantity: number;
}

export interface StockRow {
  location: string;
  itemId: string;
  /** on hand minus already reserved */
  free: number;
}

export interface Reservation {
  lineId: string;
  location: string;
  itemId: string;
  quantity: number;
}

export interface AllocationFailure {
  /** the first line, in request order, that could not be covered */
  lineId: string;
  reason: "no_candidates" | "short" | "invalid_quantity";
  requested: number;
  /** free quantity of the line's candidates left after the lines before it */
  available: number;
}

export type AllocationResult =
  | { ok: true; reservations: Reservation[] }
  | { ok: false; error: AllocationFailure };

interface Slot {
  location: string;
  /** candidate items at this location, most free first */
  items: { itemId: string; free: number }[];
  total: number;
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function allocate(lines: readonly LineDemand[], stock: readonly StockRow[]): AllocationResult {
  // Working copy of free stock, so that two lines wanting the same item never book it twice.
  const free = new Map<string, Map<string, number>>();
  for (const row of stock) {
    if (!(row.free > 0)) continue;
    const atLocation = free.get(row.location) ?? new Map<string, number>();
    atLocation.set(row.itemId, (atLocation.get(row.itemId) ?? 0) + row.free);
    free.set(row.location, atLocation);
  }

  const reservations: Reservation[] = [];
  for (const line of lines) {
    if (!Number.isInteger(line.quantity) || line.quantity <= 0) {
      return fail(line, "invalid_quantity", 0);
    }
    if (line.candidates.length === 0) return fail(line, "no_candidates", 0);
    const slots = slotsFor(free, new Set(line.candidates));
    const available = slots.reduce((sum, s) => sum + s.total, 0);
    if (available < line.quantity) return fail(line, "short", available);

    for (const slot of chooseSlots(slots, line.quantity)) {
      let wanted = slot.take;
      for (const item of slot.items) {
        if (wanted === 0) break;
        const quantity = Math.min(wanted, item.free);
        reservations.push({ lineId: line.lineId, location: slot.location, itemId: item.itemId, quantity });
        const atLocation = free.get(slot.location);
        atLocation?.set(item.itemId, item.free - quantity);
        wanted -= quantity;
      }
    }
  }
  return { ok: true, reservations };
}

function fail(line: LineDemand, reason: AllocationFailure["reason"], available: number): AllocationResult {
  return { ok: false, error: { lineId: line.lineId, reason, requested: line.quantity, available } };
}

function slotsFor(free: Map<string, Map<string, number>>, candidates: ReadonlySet<string>): Slot[] {
  const slots: Slot[] = [];
  for (const [location, items] of free) {
    const matching = [...items]
      .filter(([itemId, n]) => candidates.has(itemId) && n > 0)
      .map(([itemId, n]) => ({ itemId, free: n }))
      .sort((a, b) => b.free - a.free || byText(a.itemId, b.itemId));
    if (matching.length === 0) continue;
    slots.push({ location, items: matching, total: matching.reduce((sum, i) => sum + i.free, 0) });
  }
  return slots;
}

/** Which locations to take from, and how much from each; the caller has checked the total suffices. */
function chooseSlots(slots: Slot[], quantity: number): (Slot & { take: number })[] {
  const smallestCovering = (from: Slot[], need: number): Slot | undefined =>
    from
      .filter((s) => s.total >= need)
      .sort((a, b) => a.total - b.total || byText(a.location, b.location))[0];

  const whole = smallestCovering(slots, quantity);
  if (whole) return [{ ...whole, take: quantity }];

  const largestFirst = [...slots].sort((a, b) => b.total - a.total || byText(a.location, b.location));
  const chosen: (Slot & { take: number })[] = [];
  let remaining = quantity;
  for (let i = 0; i < largestFirst.length && remaining > 0; i++) {
    const rest = largestFirst.slice(i);
    const last = smallestCovering(rest, remaining);
    if (last) {
      chosen.push({ ...last, take: remaining });
      remaining = 0;
    } else {
      const slot = largestFirst[i] as Slot;
      chosen.push({ ...slot, take: slot.total });
      remaining -= slot.total;
    }
  }
  return chosen;
}
