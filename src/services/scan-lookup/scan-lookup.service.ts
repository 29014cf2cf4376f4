import type { ScanRepo } from "../../db/scan.repo.js";
import type { StationRepo } from "../../db/station.repo.js";
import type { StoredExpectations } from "../put/put.service.js";

/**
 * What the station engine reads about the station for one scan or press (its door): what a scanned
 * text is in the data (item, slot, MSU, tote), the work it can be about, and the bins' state for their
 * lights. Reads only; the engine's changes go through the operations door (operations.service.ts).
 */
export type ScanMeaning =
  | { kind: "item"; itemId: number; sku: string; scanRequired?: boolean }
  | { kind: "slot"; location: string; msu: string; presented: boolean }
  | { kind: "msu"; msu: string; locations: string[]; presented: boolean }
  | { kind: "tote"; externalServiceRequestId: string; state: string; binId: string | null };

export interface ScanLookupDeps {
  scan: ScanRepo;
  station: StationRepo;
}

const toteOf = (attributesJson: string): string | null => {
  const a = JSON.parse(attributesJson) as { tote_id?: unknown } | null;
  return typeof a?.tote_id === "string" ? a.tote_id : null;
};

function putsIn({ scan }: ScanLookupDeps, state: "staged" | "complete" | null) {
  return scan.puts().filter((p) => state === null || p.state === state);
}

/** Every meaning the text has in the data; the seat's step picks one (seat.machine.ts). */
export function meanings(deps: ScanLookupDeps, barcode: string): ScanMeaning[] {
  const { scan } = deps;
  const out: ScanMeaning[] = [];
  const item = scan.item(barcode);
  if (item) out.push({ kind: "item", ...item });
  const slot = scan.slot(barcode);
  if (slot)
    out.push({ kind: "slot", location: slot.location, msu: slot.msu, presented: slot.presented === 1 });
  const slots = scan.msuSlots(barcode);
  if (slots.length)
    out.push({ kind: "msu", msu: barcode, locations: slots, presented: scan.isPresented(barcode) });
  for (const p of putsIn(deps, null)) {
    if (toteOf(p.attributesJson) === barcode)
      out.push({
        kind: "tote",
        externalServiceRequestId: p.externalServiceRequestId,
        state: p.state,
        binId: p.binId,
      });
  }
  return out;
}

/** Pick work for the scanned item or slot, in work order (scan.repo.ts). */
export function pickWork({ scan }: ScanLookupDeps, found: readonly ScanMeaning[]) {
  const item = found.find((m) => m.kind === "item");
  const slot = found.find((m) => m.kind === "slot");
  if (!item && !slot) return [];
  return scan.picks(item?.itemId ?? -1, slot?.location ?? "");
}

/** Staged puts that expect the scanned item, with what they still expect of it. */
export function putWork(deps: ScanLookupDeps, found: readonly ScanMeaning[]) {
  const item = found.find((m) => m.kind === "item");
  if (!item) return [];
  return putsIn(deps, "staged").flatMap((p) => {
    const exp = JSON.parse(p.expectationsJson ?? "null") as StoredExpectations | null;
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
        left: Math.max(0, expected - deps.scan.handled(p.id, item.itemId)),
        binId: p.binId,
        toteId: toteOf(p.attributesJson),
      },
    ];
  });
}

/** The audit being counted at the station, with its lines (open: still to count). */
export function countedAudit({ scan }: ScanLookupDeps) {
  const a = scan.startedAudit();
  if (!a) return null;
  return {
    auditId: a.auditId,
    kq: a.kq === 1,
    lines: scan.auditLines(a.id).map((l) => ({
      auditLineId: l.auditLineId,
      location: l.location,
      itemId: l.itemId,
      open: l.status === "auditline_started",
    })),
  };
}

/** Whether pending pick work is still there to pick (the request may have changed meanwhile). */
export function pickStillThere(
  { scan }: ScanLookupDeps,
  p: { externalServiceRequestId: string; line: string; location: string; quantity: number },
): boolean {
  return scan
    .picks(-1, p.location)
    .some(
      (c) =>
        c.externalServiceRequestId === p.externalServiceRequestId &&
        c.line === p.line &&
        c.quantity >= p.quantity,
    );
}

/** Bins as their lights show them: state, print state, and the put of a complete tote in it. */
export function binLights(deps: ScanLookupDeps) {
  const released = new Map(putsIn(deps, "complete").map((p) => [p.binId, p.externalServiceRequestId]));
  return deps.station.bins().map((b) => ({ ...b, completePut: released.get(b.id) ?? null }));
}

/** The reads bound to their repositories, as the station engine calls them. */
export function createScanLookup(deps: ScanLookupDeps) {
  return {
    mode: () => deps.station.mode(),
    user: (seat: string): string | null => deps.station.seat(seat)?.userName ?? null,
    meanings: (barcode: string) => meanings(deps, barcode),
    picks: (found: readonly ScanMeaning[]) => pickWork(deps, found),
    puts: (found: readonly ScanMeaning[]) => putWork(deps, found),
    audit: () => countedAudit(deps),
    pickStillThere: (p: Parameters<typeof pickStillThere>[1]) => pickStillThere(deps, p),
    bins: () => binLights(deps),
    putState: (externalServiceRequestId: string): string | null =>
      deps.scan.puts().find((p) => p.externalServiceRequestId === externalServiceRequestId)?.state ?? null,
  };
}

export type ScanLookup = ReturnType<typeof createScanLookup>;
