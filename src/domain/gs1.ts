/**
 * GS1 element strings read from a scanned barcode (pure; docs/capture.md#gs1-element-strings): the
 * GTIN (AI 01), serial number (AI 21), batch/lot (AI 10) and expiration date (AI 17) of a GS1-128,
 * GS1 DataMatrix or GS1 QR Code scan, as the scanner transmits it (symbology identifier `]C1`, `]d2`,
 * `]Q3`, FNC1 as the GS character), or as the human-readable interpretation `(01)…(17)…`.
 *
 * GS1 General Specifications (Release 24): the AIs and their formats are §3.2 (01: N14; 10, 21: X..20;
 * 17: N6 YYMMDD), the AIs of predefined length that need no separator after them Figure 7.8.5-2, the
 * symbology identifiers §5.1.2 (ISO/IEC 15424), the check digit §7.9.1, the character set of AI 10
 * and 21 ("GS1 AI encodable character set 82") §7.11 Figure 7.11-1.
 */

/** The group separator: how a scanner transmits an FNC1 that ends a variable-length element. */
export const GS = "\u001d";

/** Symbology identifiers of the GS1 symbols that carry element strings (§5.1.2). */
const SYMBOLOGY_IDS = ["]C1", "]d2", "]Q3", "]e0", "]J1"] as const;

/**
 * Element strings of predefined length by their first two digits, AI included (Figure 7.8.5-2): such
 * an element needs no separator after it, so an AI this parser does not read can still be skipped.
 */
// biome-ignore format: the table as the specification prints it
const PREDEFINED: Readonly<Record<string, number>> = {
  "00": 20, "01": 16, "02": 16, "03": 16, "04": 18, "11": 8, "12": 8, "13": 8, "14": 8, "15": 8,
  "16": 8, "17": 8, "18": 8, "19": 8, "20": 4, "31": 10, "32": 10, "33": 10, "34": 10, "35": 10,
  "36": 10, "41": 16,
};

/** The AIs read here, with their value's form (§3.2). */
const READ: Readonly<Record<string, { digits?: number; max?: number }>> = {
  "01": { digits: 14 },
  "10": { max: 20 },
  "17": { digits: 6 },
  "21": { max: 20 },
};

/** "GS1 AI encodable character set 82" (§7.11 Figure 7.11-1): what AI 10 and AI 21 may hold. */
export const CSET82 = /^[!"%&'()*+,\-./0-9:;<=>?A-Z_a-z]*$/;

export interface Gs1Values {
  /** AI 01, 14 digits with a right check digit */
  gtin?: string;
  /** AI 21 */
  serial?: string;
  /** AI 10 */
  lot?: string;
  /** AI 17, as encoded: YYMMDD (docs/capture.md#expiry-dates reads it) */
  expiry?: string;
}

export type Gs1Error =
  | "empty" // a symbology identifier or parentheses with no element after them
  | "unknown_ai" // an AI this parser neither reads nor knows the length of
  | "bad_length" // a fixed-length value cut short, or a variable one over its maximum
  | "bad_value" // not digits where digits belong, outside character set 82, a wrong check digit
  | "repeated_ai"; // the same AI twice (with different values, §4.14 would refuse it too)

export type Gs1Parse =
  | { ok: true; values: Gs1Values; elements: Array<{ ai: string; value: string }> }
  | { ok: false; error: Gs1Error; ai: string | null; message: string };

/** GS1 check digit of the digits before it (§7.9.1): weights 3 and 1 from the right. */
export function gs1CheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const weight = (body.length - i) % 2 === 1 ? 3 : 1;
    sum += Number(body[i]) * weight;
  }
  return (10 - (sum % 10)) % 10;
}

const fail = (error: Gs1Error, ai: string | null, message: string): Gs1Parse => ({
  ok: false,
  error,
  ai,
  message,
});

/** Whether the scan is in a GS1 form at all: a GS1 symbology identifier, FNC1 first, or `(NN)` first. */
export function looksGs1(text: string): boolean {
  return SYMBOLOGY_IDS.some((id) => text.startsWith(id)) || text.startsWith(GS) || /^\(\d{2,4}\)/.test(text);
}

/** Splits the transmitted form into element strings (AI and value). */
function splitTransmitted(data: string): Array<{ ai: string; value: string }> | Gs1Parse {
  const out: Array<{ ai: string; value: string }> = [];
  let at = 0;
  while (at < data.length) {
    if (data[at] === GS) {
      at++;
      continue;
    }
    const ai = data.slice(at, at + 2);
    if (!/^\d{2}$/.test(ai))
      return fail("unknown_ai", ai, `no application identifier at '${data.slice(at)}'`);
    const fixed = READ[ai]?.digits;
    const length = fixed !== undefined ? fixed + 2 : PREDEFINED[ai];
    if (length !== undefined) {
      if (at + length > data.length) return fail("bad_length", ai, `AI ${ai} is cut short`);
      out.push({ ai, value: data.slice(at + 2, at + length) });
      at += length;
      continue;
    }
    if (!READ[ai]) return fail("unknown_ai", ai, `AI ${ai} is not read here and its length is not known`);
    const end = data.indexOf(GS, at);
    const stop = end < 0 ? data.length : end;
    out.push({ ai, value: data.slice(at + 2, stop) });
    at = stop;
  }
  return out;
}

/** Splits the human-readable form `(01)09501101530003(17)140704(10)AB-123` (§4.15). */
function splitReadable(data: string): Array<{ ai: string; value: string }> | Gs1Parse {
  const out: Array<{ ai: string; value: string }> = [];
  const element = /\((\d{2,4})\)([^()]*)/y;
  let at = 0;
  while (at < data.length) {
    element.lastIndex = at;
    const m = element.exec(data);
    if (!m) return fail("unknown_ai", null, `no '(AI)' at '${data.slice(at)}'`);
    out.push({ ai: m[1] as string, value: m[2] as string });
    at = element.lastIndex;
  }
  return out;
}

/** Checks one element read here against its form (§3.2). */
function checkElement(ai: string, value: string): Gs1Parse | null {
  const form = READ[ai];
  if (!form) return null;
  if (form.digits !== undefined) {
    if (value.length !== form.digits) return fail("bad_length", ai, `AI ${ai} holds ${form.digits} digits`);
    if (!/^\d+$/.test(value)) return fail("bad_value", ai, `AI ${ai} holds digits only`);
    if (ai === "01" && gs1CheckDigit(value.slice(0, 13)) !== Number(value[13]))
      return fail("bad_value", ai, `GTIN ${value} has a wrong check digit`);
    return null;
  }
  if (value.length === 0 || value.length > (form.max ?? 0))
    return fail("bad_length", ai, `AI ${ai} holds 1 to ${form.max} characters`);
  if (!CSET82.test(value)) return fail("bad_value", ai, `AI ${ai} holds a character outside GS1 set 82`);
  return null;
}

const NAMES: Readonly<Record<string, keyof Gs1Values>> = {
  "01": "gtin",
  "10": "lot",
  "17": "expiry",
  "21": "serial",
};

/**
 * The GS1 element strings of a scan, or null when the scan is not in a GS1 form (an ordinary barcode
 * such as an EAN-13 is left to the barcode list). A date is checked by `expiryDate` (capture.ts), which
 * knows today.
 */
export function parseGs1(text: string): Gs1Parse | null {
  if (!looksGs1(text)) return null;
  const id = SYMBOLOGY_IDS.find((s) => text.startsWith(s));
  const data = id ? text.slice(id.length) : text;
  const readable = data.startsWith("(");
  const split = readable ? splitReadable(data) : splitTransmitted(data);
  if (!Array.isArray(split)) return split;
  if (!split.length) return fail("empty", null, "no element string after the symbology identifier");
  const values: Gs1Values = {};
  const seen = new Set<string>();
  for (const { ai, value } of split) {
    if (readable && !READ[ai] && PREDEFINED[ai.slice(0, 2)] === undefined)
      return fail("unknown_ai", ai, `AI ${ai} is not read here and its length is not known`);
    if (seen.has(ai)) return fail("repeated_ai", ai, `AI ${ai} occurs twice`);
    seen.add(ai);
    const bad = checkElement(ai, value);
    if (bad) return bad;
    const name = NAMES[ai];
    if (name) values[name] = value;
  }
  return { ok: true, values, elements: split };
}

/**
 * The item barcodes a GTIN may be listed under: the 14 digits, and the GTIN-13, GTIN-12 and GTIN-8 it
 * holds with its leading zeros (a GTIN-13 is carried in AI 01 with one leading zero, §3.3.2).
 */
export function gtinForms(gtin: string): string[] {
  const forms = [gtin];
  for (const length of [13, 12, 8]) {
    const lead = gtin.slice(0, 14 - length);
    if (/^0*$/.test(lead)) forms.push(gtin.slice(14 - length));
  }
  return forms;
}
