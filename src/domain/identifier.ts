import { z } from "zod";

/**
 * Control characters (C0 U+0000–U+001F, DEL U+007F, C1 U+0080–U+009F) and the bidi embeddings,
 * overrides and isolates (U+202A–U+202E, U+2066–U+2069). An identifier holding one cannot be printed on
 * a label, typed at the station or shown in a log line without ambiguity: some terminals take U+009B as
 * ESC [, and an override shows `ORDER-1` where the text is something else.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** With the `u` flag a surrogate pair is one code point: only a lone surrogate is `Cs` (`String#isWellFormed`, ES2024). */
const LONE_SURROGATE = /\p{Cs}/u;

/** Why `s` is not an identifier's text, or undefined: valid Unicode (no lone surrogate), no control character. */
export function identifierProblem(s: string): string | undefined {
  if (LONE_SURROGATE.test(s)) return "must be valid Unicode (a lone UTF-16 surrogate is not)";
  if (CONTROL.test(s))
    return "must not contain control characters or bidi overrides (U+0000–U+001F, U+007F–U+009F, U+202A–U+202E, U+2066–U+2069)";
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
