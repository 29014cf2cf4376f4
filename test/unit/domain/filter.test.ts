import { describe, expect, it } from "vitest";
import {
  checkFilterKeys,
  type Filter,
  matchesAll,
  matchesFilter,
  parseFilter,
  parseFilters,
} from "../../../src/domain/filter.js";

const valid: [string, Filter][] = [
  ["product_sku = 'A-1'", { key: "product_sku", operator: "=", value: "A-1" }],
  ["product_sku='A-1'", { key: "product_sku", operator: "=", value: "A-1" }],
  ["  product_sku\t=  'A 1'  ", { key: "product_sku", operator: "=", value: "A 1" }],
  ["client_id = ''", { key: "client_id", operator: "=", value: "" }],
  ["name = 'O''Brien'", { key: "name", operator: "=", value: "O'Brien" }],
  ["name = 'a\\b'", { key: "name", operator: "=", value: "a\\b" }],
  ["name = 'x = y, (z)'", { key: "name", operator: "=", value: "x = y, (z)" }],
  ["product_sku in ('a','b')", { key: "product_sku", operator: "in", values: ["a", "b"] }],
  ["product_sku in ['a', 'b', 'c']", { key: "product_sku", operator: "in", values: ["a", "b", "c"] }],
  ["product_sku IN( 'a' , 'b' )", { key: "product_sku", operator: "in", values: ["a", "b"] }],
  ["product_sku in ['it''s']", { key: "product_sku", operator: "in", values: ["it's"] }],
  ["pdfa.size-eu in ('42')", { key: "pdfa.size-eu", operator: "in", values: ["42"] }],
];

// [text, position, code]; positions are 0-based indexes of the offending character.
const invalid: [string, number, "invalid_filter" | "unsupported_operator"][] = [
  ["", 0, "invalid_filter"],
  ["   ", 3, "invalid_filter"],
  ["= 'a'", 0, "invalid_filter"],
  ["product_sku", 11, "invalid_filter"],
  ["product_sku 'a'", 12, "invalid_filter"],
  ["product_sku != 'a'", 12, "unsupported_operator"],
  ["product_sku == 'a'", 12, "unsupported_operator"],
  ["product_sku like 'a%'", 12, "unsupported_operator"],
  ["product_sku = a", 14, "invalid_filter"],
  ['product_sku = "a"', 14, "invalid_filter"],
  ["product_sku = 'a", 14, "invalid_filter"],
  ["product_sku = 'a' extra", 18, "invalid_filter"],
  ["product_sku = ('a')", 14, "invalid_filter"],
  ["product_sku in 'a'", 15, "invalid_filter"],
  ["product_sku in ()", 16, "invalid_filter"],
  ["product_sku in ('a',)", 20, "invalid_filter"],
  ["product_sku in ('a' 'b')", 20, "invalid_filter"],
  ["product_sku in ('a']", 19, "invalid_filter"],
  ["product_sku in ('a'", 19, "invalid_filter"],
  ["product_sku in ('a', b)", 21, "invalid_filter"],
  ["product_sku in ('a') x", 21, "invalid_filter"],
  ["product_sku = 'it\\'s'", 19, "invalid_filter"],
];

describe("filter grammar", () => {
  for (const [text, filter] of valid) {
    it(`parses ${JSON.stringify(text)}`, () => {
      expect(parseFilter(text)).toEqual({ ok: true, filter });
    });
  }

  for (const [text, position, code] of invalid) {
    it(`refuses ${JSON.stringify(text)} at ${position}`, () => {
      const parsed = parseFilter(text);
      expect(parsed.ok).toBe(false);
      if (parsed.ok) return;
      expect(parsed.error.code).toBe(code);
      expect(parsed.error.position).toBe(position);
      expect(parsed.error.reason.length).toBeGreaterThan(0);
    });
  }

  it("names the first bad string of a list by its index", () => {
    const parsed = parseFilters(["product_sku = 'a'", "size in ('1'", "x = 'y'"]);
    expect(parsed).toMatchObject({ ok: false, index: 1, error: { code: "invalid_filter", position: 12 } });
    expect(parseFilters(["product_sku = 'a'", "size in ('1')"])).toEqual({
      ok: true,
      filters: [
        { key: "product_sku", operator: "=", value: "a" },
        { key: "size", operator: "in", values: ["1"] },
      ],
    });
  });
});

describe("filter matching", () => {
  const product = { product_sku: "A-1", size: 42, fragile: true, colour: null, tags: { a: 1 } };
  const f = (text: string): Filter => {
    const parsed = parseFilter(text);
    if (!parsed.ok) throw new Error(parsed.error.reason);
    return parsed.filter;
  };

  it("compares strings exactly", () => {
    expect(matchesFilter(f("product_sku = 'A-1'"), product)).toBe(true);
    expect(matchesFilter(f("product_sku = 'a-1'"), product)).toBe(false);
    expect(matchesFilter(f("product_sku = 'A-1 '"), product)).toBe(false);
  });

  it("compares numbers and booleans by their text", () => {
    expect(matchesFilter(f("size = '42'"), product)).toBe(true);
    expect(matchesFilter(f("size in ('41', '42')"), product)).toBe(true);
    expect(matchesFilter(f("fragile = 'true'"), product)).toBe(true);
    expect(matchesFilter(f("fragile = 'false'"), product)).toBe(false);
  });

  it("never matches a missing, null or object attribute", () => {
    expect(matchesFilter(f("weight = ''"), product)).toBe(false);
    expect(matchesFilter(f("colour = 'null'"), product)).toBe(false);
    expect(matchesFilter(f("tags = '[object Object]'"), product)).toBe(false);
  });

  it("selects products matching all filters", () => {
    const both = [f("product_sku in ('A-1', 'B-2')"), f("size = '42'")];
    expect(matchesAll(both, product)).toBe(true);
    expect(matchesAll(both, { ...product, size: 43 })).toBe(false);
    expect(matchesAll(both, { ...product, product_sku: "C-3" })).toBe(false);
    expect(matchesAll([], product)).toBe(true);
  });
});

describe("filter keys", () => {
  const filters: Filter[] = [
    { key: "product_sku", operator: "=", value: "A" },
    { key: "client_id", operator: "in", values: ["1"] },
  ];

  it("accepts keys among the unique keys", () => {
    expect(checkFilterKeys(filters, ["client_id", "product_sku"])).toEqual({ ok: true });
    expect(checkFilterKeys(filters, new Set(["product_sku", "client_id", "size"]))).toEqual({ ok: true });
  });

  it("names the first key that is not unique", () => {
    const check = checkFilterKeys(filters, ["product_sku"]);
    expect(check).toMatchObject({ ok: false, error: { code: "unknown_search_key", key: "client_id" } });
    expect(checkFilterKeys(filters, [])).toMatchObject({ ok: false, error: { key: "product_sku" } });
  });
});
