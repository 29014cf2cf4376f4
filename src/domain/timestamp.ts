/**
 * Timestamps (docs/interface.md "General rules": "ISO 8601 strings. Some carry a zone offset or `Z`; some carry
 * none"; docs/architecture.md#conventions: emitted as UTC with milliseconds and `Z`, read without an offset in the station's
 * time zone).
 *
 * Accepted: `YYYY-MM-DD` `T` (or one space) `hh:mm[:ss[.fraction]]` then `Z`, `±hh:mm`, `±hhmm`, `±hh`
 * or nothing. A fraction finer than milliseconds is truncated. A date without a time is refused: pick
 * times are datetimes (docs/interface.md "Pick request" attributes).
 *
 * A local time that a daylight-saving change skips (e.g. 02:30 when clocks jump from 02:00 to 03:00) is
 * moved forward by the length of the gap (03:30); a local time that occurs twice takes the earlier
 * instant. This is the "compatible" choice of JavaScript's Temporal and of most calendar software.
 */

export type TimestampParse =
  | { ok: true; ms: number }
  | { ok: false; error: { code: "validation_failed"; reason: string } };

const PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

const MINUTE = 60_000;
const DAY = 86_400_000;

export function parseSpecTimestamp(text: string, timeZone: string): TimestampParse {
  const m = PATTERN.exec(text.trim());
  if (!m) return invalid(`${JSON.stringify(text)} is not an ISO 8601 date and time`);
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s ?? "0");
  const millis = Number((frac ?? "").padEnd(3, "0").slice(0, 3));
  if (month < 1 || month > 12) return invalid(`month ${mo} is out of range`);
  if (day < 1 || day > daysInMonth(year, month)) return invalid(`day ${d} is out of range`);
  if (hour > 23 || minute > 59 || second > 59) return invalid(`time ${h}:${mi}:${s ?? "00"} is out of range`);
  const wall = daysFromCivil(year, month, day) * DAY + ((hour * 60 + minute) * 60 + second) * 1000 + millis;

  if (zone === undefined) return inZone(wall, timeZone);
  if (zone.toUpperCase() === "Z") return { ok: true, ms: wall };
  const sign = zone.startsWith("-") ? -1 : 1;
  const digits = zone.slice(1).replace(":", "");
  const offH = Number(digits.slice(0, 2));
  const offM = Number(digits.slice(2) || "0");
  if (offH > 23 || offM > 59) return invalid(`offset ${zone} is out of range`);
  return { ok: true, ms: wall - sign * (offH * 60 + offM) * MINUTE };
}

let lastMs = Number.NaN;
let lastText = "";

/**
 * UTC ISO 8601 with milliseconds and `Z` (docs/architecture.md#conventions). A non-finite `ms` is a programming error: throws.
 * A change stamps everything it writes with one time, and its views show it many times: the last one
 * formatted is kept.
 */
export function formatTimestamp(ms: number): string {
  if (ms !== lastMs) {
    lastText = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastText;
}

function invalid(reason: string): TimestampParse {
  return { ok: false, error: { code: "validation_failed", reason } };
}

/** A wall-clock time read in an IANA zone, resolved to an instant (see the module comment). */
function inZone(wall: number, timeZone: string): TimestampParse {
  const offsetAt = offsetReader(timeZone);
  if (!offsetAt) return invalid(`unknown time zone ${JSON.stringify(timeZone)}`);
  // The zone's offsets a day either side of the wall time bracket any change happening at it.
  const before = offsetAt(wall - DAY);
  const after = offsetAt(wall + DAY);
  const candidates = [wall - before, wall - after].filter((t) => wall - offsetAt(t) === t);
  if (candidates.length > 0) return { ok: true, ms: Math.min(...candidates) };
  return { ok: true, ms: wall - before };
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Offset (ms, east positive) of the zone at an instant, or undefined for an unknown zone. */
function offsetReader(timeZone: string): ((at: number) => number) | undefined {
  let format = formatters.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat("en-US", {
        timeZone,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      });
    } catch {
      return undefined;
    }
    formatters.set(timeZone, format);
  }
  const fmt = format;
  return (at: number) => {
    const parts: Record<string, number> = {};
    for (const p of fmt.formatToParts(at)) parts[p.type] = Number(p.value);
    const local =
      daysFromCivil(parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1) * DAY +
      (((parts.hour ?? 0) * 60 + (parts.minute ?? 0)) * 60 + (parts.second ?? 0)) * 1000;
    const wholeSecond = Math.floor(at / 1000) * 1000;
    return local - wholeSecond;
  };
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}
