import { gs1CheckDigit } from "./gs1.js";

/**
 * Which barcode an OLPN is printed as on the agent's own label, and whether it fits the label at all
 * (docs/hardware.md#label-printers, docs/limits.md#shipping-labels). Pure arithmetic: the pick service
 * checks an OLPN with it at create when the agent prints the labels, and labels/olpn-barcode.ts draws
 * the same symbol, so what is accepted is what prints.
 */

/** A 4-inch print head at 203 dpi is 812 dots wide: nothing of the label is printed beyond it. */
export const HEAD_DOTS = 812;
/** The narrowest bar the label prints: 3 printer dots (0.375 mm at 203 dpi); thinner bars do not decode. */
export const MIN_DOTS_PER_MODULE = 3;
/**
 * GS1's smallest X-dimension for GS1-128 on logistic labels is 0.495 mm: 4 dots at 203 dpi (0.500 mm).
 * An SSCC is printed at 4 dots per module or more.
 */
export const SSCC_DOTS_PER_MODULE = 4;
/** Clear space on each side of a Code 128 symbol, in modules (ISO/IEC 15417 and GS1: 10 X). */
export const QUIET_MODULES = 10;
/**
 * A closed box's label carries `<OLPN>-<n>` (domain/bin-full.ts): an OLPN is accepted only when it
 * still fits with this suffix, so the box labels of its order print too.
 */
export const BOX_SUFFIX_RESERVE = "-99";

export type OlpnSymbol =
  | { kind: "sscc"; bcid: "gs1-128"; text: string; human: string; symbolChars: number }
  | { kind: "code128"; bcid: "code128"; text: string; human: string; symbolChars: number };

/** Printable ASCII (space to tilde): all of it is in Code 128's subset B. */
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/** An SSCC-18: 18 digits whose last is the GS1 mod-10 check digit of the 17 before it. */
export function isSscc(text: string): boolean {
  return /^\d{18}$/.test(text) && gs1CheckDigit(text.slice(0, 17)) === Number(text[17]);
}

/**
 * The fewest Code 128 symbol characters that carry the text (start, check digit and stop not counted):
 * one per character in subset B, one per pair of digits in subset C, one per change of subset. bwip-js
 * encodes the same minimum (test/unit/labels/olpn-barcode.test.ts checks it).
 */
export function code128SymbolChars(text: string): number {
  const n = text.length;
  const b = new Array<number>(n + 1).fill(Number.POSITIVE_INFINITY);
  const c = new Array<number>(n + 1).fill(Number.POSITIVE_INFINITY);
  b[0] = 0;
  c[0] = 0;
  const digit = (i: number) => i < n && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57;
  for (let i = 0; i <= n; i++) {
    const inB = Math.min(b[i] as number, (c[i] as number) + 1);
    const inC = Math.min(c[i] as number, (b[i] as number) + 1);
    b[i] = inB;
    c[i] = inC;
    if (i < n) b[i + 1] = Math.min(b[i + 1] as number, inB + 1);
    if (digit(i) && digit(i + 1)) c[i + 2] = Math.min(c[i + 2] as number, inC + 1);
  }
  return Math.min(b[n] as number, c[n] as number);
}

/** The symbol's width in modules with its quiet zones: start, data, check (11 each), stop (13), 2 × 10. */
export function symbolModules(symbolChars: number): number {
  return (symbolChars + 2) * 11 + 13 + 2 * QUIET_MODULES;
}

/** The most data symbol characters a line of `dots` carries at `dotsPerModule`. */
export function symbolCharCapacity(dots = HEAD_DOTS, dotsPerModule = MIN_DOTS_PER_MODULE): number {
  return Math.floor((Math.floor(dots / dotsPerModule) - symbolModules(0)) / 11);
}

/** The barcode the label prints for an OLPN: GS1-128 with AI (00) for an SSCC-18, Code 128 otherwise. */
export function olpnSymbol(olpn: string): OlpnSymbol {
  if (isSscc(olpn)) {
    // FNC1, then AI 00 and the 18 digits as 10 pairs of subset C
    return { kind: "sscc", bcid: "gs1-128", text: `(00)${olpn}`, human: `(00) ${olpn}`, symbolChars: 11 };
  }
  return { kind: "code128", bcid: "code128", text: olpn, human: olpn, symbolChars: code128SymbolChars(olpn) };
}

/** The largest whole number of dots per module at which the symbol spans no more than `dots`. */
export function dotsPerModule(symbol: OlpnSymbol, dots = HEAD_DOTS): number {
  return Math.floor(dots / symbolModules(symbol.symbolChars));
}

/** Why an OLPN cannot be printed as a barcode on the label, in words; undefined when it can. */
export function olpnFault(olpn: string, dots = HEAD_DOTS): string | undefined {
  if (olpn.length === 0) return "is empty: the label's barcode needs at least one character";
  if (!PRINTABLE_ASCII.test(olpn)) {
    const bad = [...olpn].find((ch) => !PRINTABLE_ASCII.test(ch)) ?? "";
    const code = `U+${(bad.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
    const what = /[\p{L}\p{N}\p{P}\p{S}]/u.test(bad) ? `'${bad}' (${code})` : `the control character ${code}`;
    return `holds ${what}: the label's Code 128 barcode carries printable ASCII only (space to '~')`;
  }
  const symbol = olpnSymbol(olpn);
  const min = symbol.kind === "sscc" ? SSCC_DOTS_PER_MODULE : MIN_DOTS_PER_MODULE;
  if (dotsPerModule(symbol, dots) < min) return tooLong(symbol.symbolChars, dots);
  return undefined;
}

function tooLong(chars: number, dots: number): string {
  const cap = symbolCharCapacity(dots);
  return `needs ${chars} Code 128 characters (two digits in a row count as one), more than the ${cap} a label ${dots} dots wide carries at ${MIN_DOTS_PER_MODULE} dots per module`;
}

/**
 * An OLPN the agent is to print on its own label (`printing.mode: station`): it fits, and so do its
 * closed boxes' `<OLPN>-<n>` (up to `-99`). Undefined when accepted, else why not in words.
 */
export function olpnRefusal(olpn: string, dots = HEAD_DOTS): string | undefined {
  const own = olpnFault(olpn, dots);
  if (own) return own;
  const box = `${olpn}${BOX_SUFFIX_RESERVE}`;
  const chars = code128SymbolChars(box);
  if (chars > symbolCharCapacity(dots))
    return `${tooLong(chars, dots)} once a closed box's suffix '${BOX_SUFFIX_RESERVE}' is added: at most ${symbolCharCapacity(dots) - BOX_SUFFIX_RESERVE.length} characters, or ${2 * (symbolCharCapacity(dots) - 4)} digits`;
  return undefined;
}
