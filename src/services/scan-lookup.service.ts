import type { ScanRepo } from "../db/scan.repo.js";
import type { StationRepo } from "../db/station.repo.js";
import type { StoredExpectations } from "./put-support.js";

/**
 * What the station engine reads about the station for one scan or press: what a scanned text is in
 * the data (item, slot, MSU, tote), the work it can be about, and the bins' state for their lights.
 * Reads only; the engine's changes go through operations.ts.
 */
export type ScanMeaning =
  | { kind: "item"; itemId: number; sku: string; scanRequired?: boolean }
  | { kind: "slot"; location: string; msu: string; presented: boolean }
  | { kind: "msu"; msu: string; locations: string[]; presented: boolean }
  | { kind: "tote"; externalServiceRequestId: string; state: string; binId: string | null };

const toteOf = (attributesJson: string): string | null => {
  const a = JSON.parse(attributesJson) as { tote_id?: unknown } | null;
  return typeof a?.tote_id === "string" ? a.tote_id : null;
};

export function createScanLookup(repo: ScanRepo, station: StationRepo) {
  function puts(state: "staged" | "complete" | null) {
    return repo.puts().filter((p) => state === null || p.state === state);
  }

  return {
    mode: () => station.mode(),
    user: (seat: string): string | null => station.seat(seat)?.userName ?? null,

    /** Every meaning the text has in the data; the seat's step picks one (seat.machine.ts). */
    meanings(barcode: string): ScanMeaning[] {
      const out: ScanMeaning[] = [];
      const item = repo.item(barcode);
      if (item) out.push({ kind: "item", ...item });
      const slot = repo.slot(barcode);
      if (slot)
        out.push({ kind: "slot", location: slot.location, msu: slot.msu, presented: slot.presented === 1 });
      const slots = repo.msuSlots(barcode);
      if (slots.length)
        out.push({ kind: "msu", msu: barcode, locations: slots, presented: repo.isPresented(barcode) });
      for (const p of puts(null)) {
        if (toteOf(p.attributesJson) === barcode)
          out.push({
            kind: "tote",
            externalServiceRequestId: p.externalServiceRequestId,
            state: p.state,
            binId: p.binId,
          });
      }
      return out;
    },

    /** Pick work for the scanned item or slot, in work order (scan.repo.ts). */
    picks(meanings: readonly ScanMeaning[]) {
      const item = meanings.find((m) => m.kind === "item");
      const slot = meanings.find((m) => m.kind === "slot");
      if (!item && !slot) return [];
      return repo.picks(item?.itemId ?? -1, slot?.location ?? "");
    },

    /** Staged puts that expect the scanned item, with what they still expect of it. */
    puts(meanings: readonly ScanMeaning[]) {
      const item = meanings.find((m) => m.kind === "item");
      if (!item) return [];
      return puts("staged").flatMap((p) => {
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
            left: Math.max(0, expected - repo.handled(p.id, item.itemId)),
            binId: p.binId,
            toteId: toteOf(p.attributesJson),
          },
        ];
      });
    },

    /** The audit being counted at the station, with its lines (open: still to count). */
    audit() {
      const a = repo.startedAudit();
      if (!a) return null;
      return {
        auditId: a.auditId,
        kq: a.kq === 1,
        lines: repo.auditLines(a.id).map((l) => ({
          auditLineId: l.auditLineId,
          location: l.location,
          itemId: l.itemId,
          open: l.status === "auditline_started",
        })),
      };
    },

    /** Whether pending pick work is still there to pick (the request may have changed meanwhile). */
    pickStillThere(p: {
      externalServiceRequestId: string;
      line: string;
      location: string;
      quantity: number;
    }) {
      return repo
        .picks(-1, p.location)
        .some(
          (c) =>
            c.externalServiceRequestId === p.externalServiceRequestId &&
            c.line === p.line &&
            c.quantity >= p.quantity,
        );
    },

    /** Bins as their lights show them: state, print state, and the put of a complete tote in it. */
    bins() {
      const released = new Map(puts("complete").map((p) => [p.binId, p.externalServiceRequestId]));
      return station.bins().map((b) => ({ ...b, completePut: released.get(b.id) ?? null }));
    },

    putState(externalServiceRequestId: string): string | null {
      return repo.puts().find((p) => p.externalServiceRequestId === externalServiceRequestId)?.state ?? null;
    },
  };
}

export type ScanLookup = ReturnType<typeof createScanLookup>;
