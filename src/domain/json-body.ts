import { AppError } from "./errors.js";

/**
 * Deepest nesting of arrays and objects a request body may have. The spec's deepest body (an item
 * with its attributes and display data) nests under 10 levels; 64 leaves room for any honest client,
 * while every recursion over a parsed body (JSON.stringify of the idempotency hash, zod, the canonical
 * JSON of stored documents) stays thousands of frames short of the stack's end.
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Where the string whose text begins at `from` ends: the next quote not escaped, i.e. with an even
 * number of backslashes before it; -1 if there is none. Found with `indexOf`, so a string of a
 * megabyte (an item's imageData) costs a native search, not a loop over each character.
 */
function stringEnd(text: string, from: number): number {
  for (let q = text.indexOf('"', from); q !== -1; q = text.indexOf('"', q + 1)) {
    let slashes = 0;
    for (let k = q - 1; k >= from && text.charCodeAt(k) === BACKSLASH; k--) slashes++;
    if (slashes % 2 === 0) return q;
  }
  return -1;
}

/**
 * Does `text` nest deeper than `limit`? A linear scan of the raw
 * text that counts `[` and `{` outside strings: run before `JSON.parse`, so a body nested thousands
 * of levels deep is refused without building it.
 */
function tooDeep(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === QUOTE) {
      const end = stringEnd(text, i + 1);
      if (end === -1) return false; // unterminated: JSON.parse refuses it
      i = end;
    } else if (ch === 0x5b || ch === 0x7b) {
      depth++; // [ {
      if (depth > limit) return true;
    } else if (ch === 0x5d || ch === 0x7d) depth--; // ] }
  }
  return false;
}

/**
 * Parses a request body (HTTP or MQTT alike): 400 `body_too_deep` past `MAX_JSON_DEPTH` levels,
 * 400 `malformed_json` for text that is not JSON. The size limit is the caller's, checked while
 * reading (the transports differ in how bytes arrive).
 */
export function parseJsonBody(text: string, what = "body"): unknown {
  if (tooDeep(text, MAX_JSON_DEPTH)) {
    throw new AppError("body_too_deep", `the ${what} nests deeper than ${MAX_JSON_DEPTH} levels`, [
      { path: "(body)", message: `at most ${MAX_JSON_DEPTH} levels of arrays and objects` },
    ]);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new AppError("malformed_json", `the ${what} is not valid JSON: ${(e as Error).message}`, [
      { path: "(body)", message: "not valid JSON" },
    ]);
  }
}
