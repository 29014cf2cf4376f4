/**
 * GS1 element strings as scanners deliver them: AIs and values run together, variable-length values
 * end at GS (0x1D) or the end of the data; FNC1 in first position is signalled by the AIM id, not sent
 * [SRC 26, 27, 28]. hardware.md §3.6. Never parses the "(01)..." human-readable form (§3.6 step 4).
 */
import { gs1CheckDigit as checkDigitOf, GS } from "../../domain/gs1.js";
import { GS1_AIS, GS1_FIXED_LENGTH, matchAi } from "./gs1-ai.js";

export { GS };

export interface Gs1Element {
  ai: string;
  title: string;
  value: string;
}

export type Gs1ErrorReason = "empty" | "unknown-ai" | "too-short" | "bad-format" | "bad-check-digit";

export type Gs1Result =
  | { ok: true; elements: Gs1Element[] }
  /** `at` is the character offset in the input where the faulty element starts. */
  | { ok: false; reason: Gs1ErrorReason; at: number; ai?: string };

/**
 * Mod-10 check digit over `digits` (the number without its check digit): weights 3,1,3,... from the
 * rightmost digit [SRC 49]. E.g. "03600024145" -> 7.
 */
export function gs1CheckDigit(digits: string): number {
  if (!/^\d+$/.test(digits)) throw new RangeError(`gs1CheckDigit: not digits: ${JSON.stringify(digits)}`);
  // the one computation of it (domain/gs1.ts), which also checks the GTIN a capture scan carries
  return checkDigitOf(digits);
}

/** True when the last digit of `full` is the check digit of the others (GTIN, SSCC, GLN). */
export function hasValidCheckDigit(full: string): boolean {
  if (!/^\d{2,}$/.test(full)) return false;
  return gs1CheckDigit(full.slice(0, -1)) === full.charCodeAt(full.length - 1) - 48;
}

/** Parses a GS1 element string (AIM id already removed; separator already normalised to GS). */
export function parseGs1(data: string): Gs1Result {
  if (data.replaceAll(GS, "") === "") return { ok: false, reason: "empty", at: 0 };
  const elements: Gs1Element[] = [];
  let segmentStart = 0;
  for (const segment of data.split(GS)) {
    let pos = 0;
    while (pos < segment.length) {
      const at = segmentStart + pos;
      const rest = segment.slice(pos);
      const ai = matchAi(rest);
      const def = ai === undefined ? undefined : GS1_AIS.get(ai);
      if (ai === undefined || def === undefined) return { ok: false, reason: "unknown-ai", at };
      const fixed = GS1_FIXED_LENGTH[ai.slice(0, 2)];
      let length = rest.length;
      if (fixed !== undefined) {
        if (rest.length < fixed) return { ok: false, reason: "too-short", at, ai };
        length = fixed;
      }
      const value = rest.slice(ai.length, length);
      if (!def.format.test(value)) return { ok: false, reason: "bad-format", at, ai };
      if (def.checkDigit && !hasValidCheckDigit(value))
        return { ok: false, reason: "bad-check-digit", at, ai };
      elements.push({ ai, title: def.title, value });
      pos += length;
    }
    segmentStart += segment.length + 1;
  }
  return { ok: true, elements };
}
