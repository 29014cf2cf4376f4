/**
 * What the seat machine is told about the station for one input (seat.types.ts `SeatFacts`), read just
 * before it: the mode, the seat's operator, and only the work the scanned text can be about (picks
 * in pick mode, staged puts in put mode, the audit being counted in audit mode).
 */
import { isoDay } from "../domain/capture.js";
import { parseGs1 } from "../domain/gs1.js";
import type { ScanLookup } from "../services/scan-lookup/scan-lookup.service.js";
import { capturing } from "./seat.capture.js";
import type { DataMeaning, SeatFacts, SeatState } from "./seat.types.js";

const key = (p: { externalServiceRequestId: string; line: string; location: string }) =>
  `${p.externalServiceRequestId}|${p.line}|${p.location}`;

/**
 * The pick work other seats than `seat` have lit, as `order|line|slot` keys: never offered to this seat,
 * neither to its scans nor on its screen (docs/station.md#two-seats-one-station).
 */
export function litByOthers(seats: ReadonlyMap<string, SeatState>, seat: string): Set<string> {
  return new Set(
    [...seats].flatMap(([s, st]) => (s !== seat && st.step === "pick_confirm" ? [key(st.pick)] : [])),
  );
}

/** Whether a pick line (as the screen lists it: order, line, slot) is in `taken` (litByOthers). */
export const isTaken = (taken: ReadonlySet<string>, row: { order: string; line: string; slot: string }) =>
  taken.has(`${row.order}|${row.line}|${row.slot}`);

export function readSeatFacts(
  lookup: ScanLookup,
  seats: ReadonlyMap<string, SeatState>,
  seat: string,
  meanings: DataMeaning[],
): SeatFacts {
  const mode = lookup.mode();
  // work another seat already has lit is not offered twice (two operators, one order line)
  const taken = litByOthers(seats, seat);
  const all = mode === "pick" && meanings.length ? lookup.picks(meanings) : [];
  const picks = all.filter((p) => !taken.has(key(p)));
  return {
    mode,
    seat,
    user: lookup.user(seat),
    picks,
    ...(all.length > picks.length && !picks.length ? { otherSeat: true } : {}),
    puts: mode === "put" && meanings.length ? lookup.puts(meanings) : [],
    audit: mode === "audit" ? lookup.audit() : null,
  };
}

/**
 * What a scan needs for capture (docs/capture.md#at-the-seat): today, and which serial numbers it
 * carries (as its text, in a GS1 element string, in the item's GS1 barcode) the station already picked.
 * Read only when the scan can capture: the seat waits for a value, or the scan is a GS1 item barcode.
 */
export function captureFacts(
  lookup: ScanLookup,
  state: SeatState,
  scan: { barcode: string; meanings: DataMeaning[] },
  at: { now: number; timeZone: string },
): Pick<SeatFacts, "today" | "serialsTaken"> {
  const carried = scan.meanings.flatMap((m) => (m.kind === "item" && m.gs1?.serial ? [m.gs1.serial] : []));
  if (!capturing(state) && !carried.length) return {};
  const parsed = parseGs1(scan.barcode);
  const inText = parsed?.ok && parsed.values.serial !== undefined ? [parsed.values.serial] : [];
  const candidates = [...new Set([scan.barcode, ...carried, ...inText])];
  return { today: isoDay(at.now, at.timeZone), serialsTaken: lookup.serialsTaken(candidates) };
}
