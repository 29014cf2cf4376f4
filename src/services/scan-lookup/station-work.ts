import type { PickCandidateRow, PutRow, ScanRepo } from "../../db/scan.repo.js";
import type { EventBus } from "../../events.js";
import type { StoredExpectations } from "../put/put.service.js";

/** A staged or complete put as scans need it: its tote and its expectations, parsed once. */
export interface PutWork {
  id: number;
  externalServiceRequestId: string;
  state: string;
  binId: string | null;
  toteId: string | null;
  expectations: StoredExpectations | null;
}

/** The audit being counted, with its lines (open: still to count). */
export interface CountedAudit {
  auditId: string;
  kq: boolean;
  lines: Array<{ auditLineId: string; location: string; itemId: number; open: boolean }>;
}

const toteOf = (attributesJson: string): string | null => {
  const a = JSON.parse(attributesJson) as { tote_id?: unknown } | null;
  return typeof a?.tote_id === "string" ? a.tote_id : null;
};

const putWork = (p: PutRow): PutWork => ({
  id: p.id,
  externalServiceRequestId: p.externalServiceRequestId,
  state: p.state,
  binId: p.binId,
  toteId: toteOf(p.attributesJson),
  expectations: JSON.parse(p.expectationsJson ?? "null") as StoredExpectations | null,
});

/** One part of the station's work: read when first asked for, and again after a change made it stale. */
function part<T>(scan: ScanRepo, read: () => T) {
  let value: T | undefined;
  let stale = true;
  return {
    get(): T {
      if (!stale) return value as T;
      const fresh = read();
      // read inside a transaction, it could still roll back: used now, read again next time
      if (scan.inTransaction()) return fresh;
      value = fresh;
      stale = false;
      return fresh;
    },
    stale(): void {
      stale = true;
    },
  };
}

const OWNER = "station-work";

/**
 * The station's work, held in memory for the station engine's lookups (scan-lookup.service.ts): the
 * racks presented, the pick work reserved at their slots in work order, the staged and complete puts,
 * and the audit being counted. Each part is read from the database when first asked for, and again
 * after a change made it stale. Every change is announced on the bus once its transaction committed
 * (services/unit-of-work/unit-of-work.ts): a `request` makes the pick or put work stale, `station` (racks, bins,
 * mode, seats) the racks and all the work at them, `audit` the audit. So a scan reads nothing of this
 * while nothing changes, and a burst of changes costs one read of each part it touched, at the next
 * scan. The mode, seats and bins are the station repository's own memory (db/station.repo.ts).
 */
export function createStationWork(deps: { scan: ScanRepo; bus: EventBus }) {
  const { scan, bus } = deps;
  const racks = part(scan, () => new Set(scan.racks()));
  const picks = part(scan, (): readonly PickCandidateRow[] => scan.picks());
  const puts = part(scan, (): readonly PutWork[] => scan.puts().map(putWork));
  const handled = new Map<string, number>();
  const audit = part(scan, (): CountedAudit | null => {
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
  });
  const putsChanged = () => {
    puts.stale();
    handled.clear();
  };
  bus.on(OWNER, "request", (e) => (e.type === "PICK" ? picks.stale() : putsChanged()));
  bus.on(OWNER, "station", () => {
    racks.stale();
    picks.stale();
    putsChanged();
  });
  bus.on(OWNER, "audit", () => audit.stale());

  return {
    isPresented: (msu: string): boolean => racks.get().has(msu),
    /** Pick work at presented slots, in work order. */
    picks: () => picks.get(),
    /** Staged and complete puts, in arrival order. */
    puts: () => puts.get(),
    /** Units of an item a put has handled (its actuals, excess left out). */
    handled(putId: number, itemId: number): number {
      const key = `${putId}:${itemId}`;
      const known = handled.get(key);
      if (known !== undefined) return known;
      const n = scan.handled(putId, itemId);
      if (!scan.inTransaction()) handled.set(key, n);
      return n;
    },
    audit: () => audit.get(),
  };
}

export type StationWork = ReturnType<typeof createStationWork>;
