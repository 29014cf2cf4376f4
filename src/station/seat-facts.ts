/**
 * What the seat machine is told about the station for one input (seat.types.ts `SeatFacts`), read just
 * before it: the mode, the seat's operator, and only the work the scanned text can be about (picks
 * in pick mode, staged puts in put mode, the audit being counted in audit mode).
 */
import type { ScanLookup } from "../services/scan-lookup/scan-lookup.service.js";
import type { DataMeaning, SeatFacts, SeatState } from "./seat.types.js";

const key = (p: { externalServiceRequestId: string; line: string; location: string }) =>
  `${p.externalServiceRequestId}|${p.line}|${p.location}`;

export function readSeatFacts(
  lookup: ScanLookup,
  seats: ReadonlyMap<string, SeatState>,
  seat: string,
  meanings: DataMeaning[],
): SeatFacts {
  const mode = lookup.mode();
  // work another seat already has lit is not offered twice (two operators, one order line)
  const taken = new Set(
    [...seats].flatMap(([s, st]) => (s !== seat && st.step === "pick_confirm" ? [key(st.pick)] : [])),
  );
  return {
    mode,
    seat,
    user: lookup.user(seat),
    picks: mode === "pick" && meanings.length ? lookup.picks(meanings).filter((p) => !taken.has(key(p))) : [],
    puts: mode === "put" && meanings.length ? lookup.puts(meanings) : [],
    audit: mode === "audit" ? lookup.audit() : null,
  };
}
