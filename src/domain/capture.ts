/**
 * Capture of serial numbers, lots and expiry dates at the seat (pure; docs/capture.md): which an item
 * needs (a product attribute flag per kind, `station.capture`), whether a captured value is good, and
 * how it is reported in a pick's actuals. Today is an input: nothing here reads a clock.
 */
import { CSET82, parseGs1 } from "./gs1.js";

/** What can be captured, in the order the seat asks for them. */
export const CAPTURE_KINDS = ["serial", "lot", "expiry"] as const;
export type CaptureKind = (typeof CAPTURE_KINDS)[number];

/**
 * One kind's rule (docs/capture.md#configuration): `when` is the product attribute whose value `true`
 * says an item needs it; `as` the product attribute the captured value is reported under in actuals.
 */
export interface CaptureRule {
  when: string | null;
  as: string;
}
export type CaptureRules = Partial<Record<CaptureKind, CaptureRule>>;

/** Captured values: serial and lot as scanned, expiry as an ISO date `YYYY-MM-DD`. */
export type CaptureValues = Partial<Record<CaptureKind, string>>;

/** The kinds an item needs, by its productAttributes. */
export function captureNeeds(rules: CaptureRules, productAttributes: Record<string, unknown>): CaptureKind[] {
  return CAPTURE_KINDS.filter((k) => {
    const rule = rules[k];
    return rule?.when != null && productAttributes[rule.when] === true;
  });
}

/** The first kind still missing, or null when every needed value is there. */
export function nextToCapture(needs: readonly CaptureKind[], values: CaptureValues): CaptureKind | null {
  return needs.find((k) => values[k] === undefined) ?? null;
}

/** Stable reasons a captured value is refused (the screen and the station API say each in words). */
export const CAPTURE_REFUSALS = ["bad_serial", "bad_lot", "bad_expiry", "expired", "serial_taken"] as const;
export type CaptureRefusal = (typeof CAPTURE_REFUSALS)[number];

export type CaptureCheck =
  | { ok: true; value: string }
  | { ok: false; reason: CaptureRefusal; field: CaptureKind; message: string };

const refuse = (reason: CaptureRefusal, field: CaptureKind, message: string): CaptureCheck => ({
  ok: false,
  reason,
  field,
  message,
});

const pad = (n: number, width = 2) => String(n).padStart(width, "0");
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * The century of a two-digit year (GS1 General Specifications §7.12): 51 to 99 years ahead of today is
 * the past century, 50 or more years back is the next one, else the current one.
 */
export function fullYear(yy: number, todayYear: number): number {
  const century = Math.floor(todayYear / 100) * 100;
  const diff = yy - (todayYear % 100);
  if (diff >= 51) return century - 100 + yy;
  if (diff <= -50) return century + 100 + yy;
  return century + yy;
}

/**
 * An expiry date as an ISO date: `YYMMDD` (AI 17; day 00 is the month's last day, GS1 General
 * Specifications §3.4.2) or `YYYY-MM-DD` as keyed in; null when it is no date. `today`: `YYYY-MM-DD`.
 */
export function expiryDate(text: string, today: string): string | null {
  let year: number;
  let month: number;
  let day: number;
  const short = /^(\d{2})(\d{2})(\d{2})$/.exec(text);
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (short) {
    year = fullYear(Number(short[1]), Number(today.slice(0, 4)));
    month = Number(short[2]);
    day = Number(short[3]);
  } else if (iso) {
    [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  } else return null;
  if (month < 1 || month > 12) return null;
  const last = daysIn(year, month);
  if (short && day === 0) day = last;
  if (day < 1 || day > last) return null;
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** A serial or lot: 1 to 20 characters of GS1 set 82 (AI 21, AI 10: X..20). */
function checkText(kind: "serial" | "lot", text: string): CaptureCheck {
  const reason = kind === "serial" ? "bad_serial" : "bad_lot";
  const what = kind === "serial" ? "a serial number" : "a lot";
  if (text.length === 0 || text.length > 20)
    return refuse(reason, kind, `${what} has 1 to 20 characters, '${text}' has ${text.length}`);
  if (!CSET82.test(text))
    return refuse(reason, kind, `${what} holds letters, digits and !"%&'()*+,-./:;<=>?_`);
  return { ok: true, value: text };
}

/** Whether `text` is a good value of `kind` today; an expiry comes back as an ISO date. */
export function checkCaptured(kind: CaptureKind, text: string, today: string): CaptureCheck {
  if (kind !== "expiry") return checkText(kind, text);
  const date = expiryDate(text, today);
  if (date === null) return refuse("bad_expiry", kind, `'${text}' is no date (YYMMDD)`);
  if (date < today) return refuse("expired", kind, `expired on ${date}`);
  return { ok: true, value: date };
}

/**
 * What one scan at the capture step gives: the GS1 element strings it carries (AI 21, 10, 17), else the
 * scanned text as the value asked for. A GS1 scan that does not parse is refused as the value asked for.
 */
export function valuesOfScan(
  text: string,
  asked: CaptureKind,
): { ok: true; values: Partial<Record<CaptureKind, string>> } | { ok: false; message: string } {
  const gs1 = parseGs1(text);
  if (gs1 === null) return { ok: true, values: { [asked]: text } };
  if (!gs1.ok) return { ok: false, message: gs1.message };
  const { serial, lot, expiry } = gs1.values;
  const values: Partial<Record<CaptureKind, string>> = {};
  if (serial !== undefined) values.serial = serial;
  if (lot !== undefined) values.lot = lot;
  if (expiry !== undefined) values.expiry = expiry;
  return { ok: true, values };
}

/**
 * Checks every value given against what the item needs; the first bad one refuses the whole. Values of
 * kinds the item does not need are dropped.
 */
export function checkAll(
  needs: readonly CaptureKind[],
  given: Partial<Record<CaptureKind, string>>,
  today: string,
): { ok: true; values: CaptureValues } | Extract<CaptureCheck, { ok: false }> {
  const values: CaptureValues = {};
  for (const kind of needs) {
    const text = given[kind];
    if (text === undefined) continue;
    const checked = checkCaptured(kind, text, today);
    if (!checked.ok) return checked;
    values[kind] = checked.value;
  }
  return { ok: true, values };
}

/** The captured values under their reported product attribute names (docs/capture.md#in-the-actuals). */
export function reportedAttributes(rules: CaptureRules, values: CaptureValues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kind of CAPTURE_KINDS) {
    const rule = rules[kind];
    const value = values[kind];
    if (rule !== undefined && value !== undefined) out[rule.as] = value;
  }
  return out;
}

/** The default rules (config `station.capture`): the flags and names docs/capture.md#configuration lists. */
export const DEFAULT_CAPTURE_RULES: Required<Record<CaptureKind, CaptureRule>> = {
  serial: { when: "serial_required", as: "serial_number" },
  lot: { when: "lot_required", as: "lot" },
  expiry: { when: "expiry_required", as: "expiry_date" },
};

/** Today as `YYYY-MM-DD` in the station's time zone, from epoch ms (the shell passes its clock's now). */
export function isoDay(nowMs: number, timeZone = "UTC"): string {
  // en-CA writes dates as YYYY-MM-DD
  return new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(nowMs);
}
