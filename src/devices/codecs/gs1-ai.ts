/**
 * GS1 Application Identifier tables used by the element-string parser (gs1.ts). hardware.md §1.4 and
 * §3.6, from the point-of-sale BarcodeParser tables [SRC 26].
 */

/**
 * Element length INCLUDING the AI digits, keyed by the AI's first two digits. Every other AI is
 * variable length and ends at GS (0x1D) or at the end of the data [SRC 26].
 */
export const GS1_FIXED_LENGTH: Readonly<Record<string, number>> = {
  "00": 20,
  "01": 16,
  "02": 16,
  "03": 16,
  "04": 18,
  ...Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`1${i + 1}`, 8])),
  "20": 4,
  ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`3${i + 1}`, 10])),
  "41": 16,
};

export interface AiDefinition {
  title: string;
  /** Whole-value pattern (GS1 "n" / "an" formats). */
  format: RegExp;
  /** The value ends in a mod-10 check digit (GTIN, SSCC, GLN) [SRC 26]. */
  checkDigit: boolean;
}

/**
 * GS1 AI encodable character set 82 (the "an" format): letters, digits and a few punctuation marks.
 * Kept as a character class so formats below read like the GS1 notation.
 */
const AN = "[!\"%&'()*+,\\-./0-9:;<=>?A-Z_a-z]";

const n = (len: number): RegExp => new RegExp(`^\\d{${len}}$`);
const nUpTo = (max: number): RegExp => new RegExp(`^\\d{1,${max}}$`);
const anUpTo = (max: number): RegExp => new RegExp(`^${AN}{1,${max}}$`);

const entries: Array<[string, string, RegExp, boolean]> = [
  ["00", "SSCC", n(18), true],
  ["01", "GTIN", n(14), true],
  ["02", "CONTENT", n(14), true],
  ["10", "BATCH/LOT", anUpTo(20), false],
  // Dates are n6; reading them as YYMMDD is left to the caller (not in the sources, §1.4).
  ["11", "PROD DATE", n(6), false],
  ["12", "DUE DATE", n(6), false],
  ["13", "PACK DATE", n(6), false],
  ["15", "BEST BEFORE", n(6), false],
  ["16", "SELL BY", n(6), false],
  ["17", "USE BY", n(6), false],
  ["20", "VARIANT", n(2), false],
  ["21", "SERIAL", anUpTo(20), false],
  ["30", "VAR. COUNT", nUpTo(8), false],
  ["37", "COUNT", nUpTo(8), false],
  ["400", "ORDER NUMBER", anUpTo(30), false],
  ["410", "SHIP TO LOC", n(13), true],
  ["411", "BILL TO", n(13), true],
  ["412", "PURCHASE FROM", n(13), true],
  ["413", "SHIP FOR LOC", n(13), true],
  ["414", "LOC No.", n(13), true],
  ["415", "PAY TO", n(13), true],
  ["416", "PROD/SERV LOC", n(13), true],
  ["420", "SHIP TO POST", anUpTo(20), false],
  ["421", "SHIP TO POST", new RegExp(`^\\d{3}${AN}{1,9}$`), false],
  // 310n: the 4th digit is the number of implied decimals; left to the caller (§1.4).
  ...Array.from({ length: 6 }, (_, d): [string, string, RegExp, boolean] => [
    `310${d}`,
    "NET WEIGHT (kg)",
    n(6),
    false,
  ]),
  ["90", "INTERNAL", anUpTo(30), false],
  ...Array.from({ length: 9 }, (_, i): [string, string, RegExp, boolean] => [
    `9${i + 1}`,
    "INTERNAL",
    anUpTo(90),
    false,
  ]),
];

export const GS1_AIS: ReadonlyMap<string, AiDefinition> = new Map(
  entries.map(([ai, title, format, checkDigit]) => [ai, { title, format, checkDigit }]),
);

/** The known AI at the start of `text` (2, 3 or 4 digits; GS1 AIs are prefix-free), or undefined. */
export function matchAi(text: string): string | undefined {
  for (let len = 2; len <= 4; len++) {
    const candidate = text.slice(0, len);
    if (candidate.length === len && GS1_AIS.has(candidate)) return candidate;
  }
  return undefined;
}
