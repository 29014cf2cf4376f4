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
 * Most arrays and objects a request body may hold. Each costs the heap some tens of bytes once parsed,
 * against the one to three bytes of its text, and parsing many of them promotes them out of the young
 * generation: 20,000 parse in about a millisecond, a megabyte of 320,000 empty objects held the event
 * loop 0.2–1.4 s (docs/limits.md#item-documents). The interface's largest honest bodies (a pick of 1,000
 * lines, a catalog of 1,000 attributes) hold a few thousand.
 */
export const MAX_JSON_CONTAINERS = 20_000;

const COLON = 0x3a;

type ShapeProblem = { kind: "deep" } | { kind: "many"; member: string | undefined };

/**
 * Does `text` nest deeper than `MAX_JSON_DEPTH`, or hold more than `MAX_JSON_CONTAINERS` arrays and
 * objects? A linear scan of the raw text that counts `[` and `{` outside strings: run before
 * `JSON.parse`, so such a body is refused without building it. `member` is the body's top-level member
 * being read when the count passed the limit.
 */
function shapeProblem(text: string): ShapeProblem | undefined {
  let depth = 0;
  let containers = 0;
  let key: [number, number] | undefined;
  let member: [number, number] | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === QUOTE) {
      const end = stringEnd(text, i + 1);
      if (end === -1) return undefined; // unterminated: JSON.parse refuses it
      if (depth === 1) key = [i + 1, end];
      i = end;
    } else if (ch === COLON && depth === 1) member = key;
    else if (ch === 0x5b || ch === 0x7b) {
      depth++; // [ {
      if (depth > MAX_JSON_DEPTH) return { kind: "deep" };
      if (++containers > MAX_JSON_CONTAINERS)
        return {
          kind: "many",
          member: member && text.slice(member[0], Math.min(member[1], member[0] + 255)),
        };
    } else if (ch === 0x5d || ch === 0x7d) depth--; // ] }
  }
  return undefined;
}

/**
 * Parses a request body (HTTP or MQTT alike): 400 `body_too_deep` past `MAX_JSON_DEPTH` levels,
 * 400 `validation_failed` naming the top-level member past `MAX_JSON_CONTAINERS` arrays and objects,
 * 400 `malformed_json` for text that is not JSON. The size limit is the caller's, checked while
 * reading (the transports differ in how bytes arrive).
 */
export function parseJsonBody(text: string, what = "body"): unknown {
  const problem = shapeProblem(text);
  if (problem?.kind === "deep") {
    throw new AppError("body_too_deep", `the ${what} nests deeper than ${MAX_JSON_DEPTH} levels`, [
      { path: "(body)", message: `at most ${MAX_JSON_DEPTH} levels of arrays and objects` },
    ]);
  }
  if (problem?.kind === "many") {
    const path = problem.member ?? "(body)";
    const message = `at most ${MAX_JSON_CONTAINERS} arrays and objects in the ${what}; more by here`;
    throw new AppError("validation_failed", `${path}: ${message}`, [{ path, message }]);
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new AppError("malformed_json", `the ${what} is not valid JSON: ${(e as Error).message}`, [
      { path: "(body)", message: "not valid JSON" },
    ]);
  }
}
