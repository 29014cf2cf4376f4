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
 * Does `text` nest deeper than `limit`? A linear scan of the raw
 * text that counts `[` and `{` outside strings: run before `JSON.parse`, so a body nested thousands
 * of levels deep is refused without building it.
 */
function tooDeep(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      // a backslash escapes the next character (an escaped quote does not end the string)
      if (ch === BACKSLASH) i++;
      else if (ch === QUOTE) inString = false;
      continue;
    }
    if (ch === QUOTE) inString = true;
    else if (ch === 0x5b || ch === 0x7b) {
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
