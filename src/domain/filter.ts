/**
 * Pick line filter strings (docs/interface.md "Pick request": "Filter string grammar: `unique_key operator value`"),
 * e.g. `product_sku = 'A-1'` or `product_sku in ('A-1', 'A-2')`.
 *
 *   filter   := ws key ws operator ws value ws
 *   key      := one or more characters other than space, tab, ' , ( ) [ ] = ! < > ~
 *   operator := "=" | "in"                      ("in" in any letter case)
 *   value    := string                          (after "=")
 *             | "(" ws list ws ")"              (after "in")
 *             | "[" ws list ws "]"
 *   list     := string (ws "," ws string)*      (at least one; no trailing comma)
 *   string   := "'" (any character but "'" | "''")* "'"
 *   ws       := spaces and tabs, any number
 *
 * A quote inside a value is written twice (`'O''Brien'`), as in SQL, whose look the grammar borrows;
 * a backslash has no special meaning. Parsing never throws: bad input gives an error with the 0-based
 * position of the offending character and a reason. The spec limits pick filters to `=` and `in`
 * (docs/interface.md "Limits"); any other operator is `unsupported_operator`. A key is an attribute name
 * as an item schema may give it ("`unique_key` is one of the product's uniquely defining attributes"),
 * `größe` or `品番` included; only the characters that end a key cannot be in one.
 */
import type { ErrorCode } from "./errors.js";

export type Filter =
  | { key: string; operator: "="; value: string }
  | { key: string; operator: "in"; values: string[] };

export interface FilterError {
  code: Extract<ErrorCode, "invalid_filter" | "unsupported_operator">;
  /** 0-based index in the filter string; its length when the string ended too early */
  position: number;
  reason: string;
}

export type FilterParse = { ok: true; filter: Filter } | { ok: false; error: FilterError };

const KEY_CHAR = /[^ \t'(),[\]=!<>~]/u;
const OPERATOR_CHAR = /[=!<>~]/;
const WORD_CHAR = /[A-Za-z]/;

export function parseFilter(text: string): FilterParse {
  let pos = 0;
  const fail = (reason: string, at = pos, code: FilterError["code"] = "invalid_filter"): FilterParse => ({
    ok: false,
    error: { code, position: at, reason },
  });
  const skipSpace = (): void => {
    while (text[pos] === " " || text[pos] === "\t") pos++;
  };
  const readWhile = (re: RegExp): string => {
    const start = pos;
    while (pos < text.length && re.test(text[pos] as string)) pos++;
    return text.slice(start, pos);
  };
  /** a quoted string at `pos`, or the error that stopped it */
  const readString = (): { value: string } | { error: FilterParse } => {
    if (text[pos] !== "'") return { error: fail("expected a single-quoted value") };
    const open = pos++;
    let value = "";
    for (;;) {
      const c = text[pos];
      if (c === undefined) return { error: fail("unterminated quoted value", open) };
      pos++;
      if (c !== "'") value += c;
      else if (text[pos] === "'") {
        value += "'";
        pos++;
      } else return { value };
    }
  };

  skipSpace();
  const key = readWhile(KEY_CHAR);
  if (key === "") return fail(pos === text.length ? "missing key" : "expected a key (an attribute name)");
  skipSpace();
  const opAt = pos;
  const op = OPERATOR_CHAR.test(text[pos] ?? "") ? readWhile(OPERATOR_CHAR) : readWhile(WORD_CHAR);
  if (op === "") return fail(pos === text.length ? "missing operator" : "expected an operator (= or in)");
  if (op !== "=" && op.toLowerCase() !== "in") {
    return fail(`operator ${op} is not supported; use = or in`, opAt, "unsupported_operator");
  }
  skipSpace();

  let filter: Filter;
  if (op === "=") {
    const read = readString();
    if ("error" in read) return read.error;
    filter = { key, operator: "=", value: read.value };
  } else {
    const opener = text[pos];
    if (opener !== "(" && opener !== "[") return fail("operator in takes a list: ('a', 'b') or ['a', 'b']");
    const closer = opener === "(" ? ")" : "]";
    pos++;
    const values: string[] = [];
    for (;;) {
      skipSpace();
      if (values.length === 0 && text[pos] === closer) return fail("the list is empty");
      const read = readString();
      if ("error" in read) return read.error;
      values.push(read.value);
      skipSpace();
      if (text[pos] === ",") {
        pos++;
        continue;
      }
      if (text[pos] === closer) {
        pos++;
        break;
      }
      return fail(pos === text.length ? `unterminated list: missing ${closer}` : `expected , or ${closer}`);
    }
    filter = { key, operator: "in", values };
  }
  skipSpace();
  if (pos !== text.length) return fail("unexpected text after the value");
  return { ok: true, filter };
}

/** Parses every filter string of a pick line; the first bad one is named by its index. */
export function parseFilters(
  texts: readonly string[],
): { ok: true; filters: Filter[] } | { ok: false; index: number; error: FilterError } {
  const filters: Filter[] = [];
  for (const [index, text] of texts.entries()) {
    const parsed = parseFilter(text);
    if (!parsed.ok) return { ok: false, index, error: parsed.error };
    filters.push(parsed.filter);
  }
  return { ok: true, filters };
}

/**
 * Whether a product's attributes satisfy one filter. Strings compare exactly (case and spaces count);
 * numbers and booleans compare by their text (`1` matches `'1'`, `true` matches `'true'`), since filter
 * values are always quoted strings. A missing, null or object attribute never matches.
 */
export function matchesFilter(filter: Filter, attributes: Readonly<Record<string, unknown>>): boolean {
  const actual = attributes[filter.key];
  let text: string;
  if (typeof actual === "string") text = actual;
  else if (typeof actual === "number" || typeof actual === "boolean" || typeof actual === "bigint") {
    text = String(actual);
  } else return false;
  return filter.operator === "=" ? text === filter.value : filter.values.includes(text);
}

/** "When several filter strings are given, products matching all of them are selected." */
export function matchesAll(
  filters: readonly Filter[],
  attributes: Readonly<Record<string, unknown>>,
): boolean {
  return filters.every((f) => matchesFilter(f, attributes));
}

export type KeyCheck =
  | { ok: true }
  | { ok: false; error: { code: Extract<ErrorCode, "unknown_search_key">; key: string; reason: string } };

/**
 * "`unique_key` is one of the product's uniquely defining attributes": every filter's key must be among
 * `uniqueKeys` (the union of the schema's uniqueness groups). The first key that is not is named.
 */
export function checkFilterKeys(filters: readonly Filter[], uniqueKeys: Iterable<string>): KeyCheck {
  const known = new Set(uniqueKeys);
  const unknown = filters.find((f) => !known.has(f.key));
  if (!unknown) return { ok: true };
  const allowed = [...known].sort().join(", ") || "none";
  return {
    ok: false,
    error: {
      code: "unknown_search_key",
      key: unknown.key,
      reason: `${unknown.key} is not a unique key (unique keys: ${allowed})`,
    },
  };
}
