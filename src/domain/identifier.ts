import { z } from "zod";

/**
 * Control characters (U+0000–U+001F, U+007F). An identifier holding one cannot be printed on a label,
 * typed at the station or shown in a log line without ambiguity.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/** With the `u` flag a surrogate pair is one code point: only a lone surrogate is `Cs` (`String#isWellFormed`, ES2024). */
const LONE_SURROGATE = /\p{Cs}/u;

/** Why `s` is not an identifier's text, or undefined: valid Unicode (no lone surrogate), no control character. */
export function identifierProblem(s: string): string | undefined {
  if (LONE_SURROGATE.test(s)) return "must be valid Unicode (a lone UTF-16 surrogate is not)";
  if (CONTROL.test(s)) return "must not contain control characters (U+0000–U+001F, U+007F)";
  return undefined;
}

/**
 * The text of a field the spec treats as an identifier (request ids, SKUs, barcodes, bins, locations,
 * users …): stored, compared, printed and sent back to central, so it must be valid Unicode without
 * control characters. A 400 names the field otherwise.
 */
export function identifier(max = 255) {
  return z
    .string()
    .min(1)
    .max(max)
    .superRefine((s, ctx) => {
      const problem = identifierProblem(s);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    });
}
