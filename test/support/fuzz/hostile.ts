import fc from "fast-check";

/**
 * Building blocks of hostile input: text that breaks naive handling (NUL and control characters, lone
 * surrogates, BOM, bidi marks, combining and astral characters, separators of paths, queries and JSON),
 * very long strings, nested values, raw JSON text a serializer would never write.
 */

export const EDGE_UNITS = [
  "\u0000",
  "\u0001",
  "\u0008",
  "\u001b",
  "\u001f",
  "\u007f",
  "\u0085",
  "\u00a0",
  "\ufeff",
  "\u200b",
  "\u200d",
  "\u200e",
  "\u200f",
  "\u202e",
  "\u2066",
  "\u2028",
  "\u2029",
  "\u0301",
  "e\u0301",
  "\u0e47\u0e47\u0e47",
  "\ud800",
  "\udfff",
  "\udbff\udfff",
  "\ud83d",
  "😀",
  "👩‍👩‍👧",
  "𝕏",
  "\ufffd",
  "\ufffe",
  "\uffff",
  "/",
  "\\",
  "%",
  "%00",
  "%ff",
  "%ZZ",
  "..",
  "?",
  "#",
  "&",
  "=",
  "+",
  ";",
  " ",
  "\t",
  "\n",
  "\r",
  '"',
  "'",
  "`",
  "<",
  ">",
  "{",
  "}",
  "[",
  "]",
  ",",
  ":",
  "*",
  "$",
  "-",
  "_",
  "0",
  "-1",
  "1e309",
  "NaN",
  "null",
  "true",
  "__proto__",
  "constructor",
  "Robert'); DROP TABLE items;--",
  "%s%n",
  "{{7*7}}",
  "../../etc/passwd",
];

const unit = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...EDGE_UNITS) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 }) },
);

const shortString = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit, maxLength: 12, size: "small" }) },
  { weight: 1, arbitrary: fc.constantFrom("__proto__", "constructor", "", "\u0000") },
);

/** Short hostile text, or a very long one (past identifier limits and much further). */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit, maxLength: 24 }) },
  {
    weight: 1,
    arbitrary: fc.tuple(unit, fc.integer({ min: 100, max: 20_000 })).map(([u, n]) => u.repeat(n)),
  },
  { weight: 1, arbitrary: fc.constantFrom("", " ", "\u0000", "\ud800") },
);

/** Numbers JSON can carry and a few it can only pretend to (NaN and ±Infinity serialize as null). */
export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -0, -1, 1.5, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, 5e-324, Number.NaN),
  fc.double(),
  fc.integer(),
);

/** A leaf of any JSON type, hostile where it can be. */
export const hostileLeaf: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false) },
);

/** Any JSON value, shallow but wide at times: arrays and objects of hostile leaves and keys. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{
  value: unknown;
  array: unknown[];
  object: object;
}>((tie) => ({
  value: fc.oneof({ depthSize: "xsmall", maxDepth: 3 }, hostileLeaf, tie("array"), tie("object")),
  array: fc.oneof(
    { weight: 8, arbitrary: fc.array(tie("value"), { maxLength: 4, size: "xsmall" }) },
    { weight: 1, arbitrary: fc.integer({ min: 100, max: 3000 }).map((n) => new Array(n).fill(0)) },
  ),
  object: fc.dictionary(shortString, tie("value"), { maxKeys: 4, size: "xsmall" }),
})).value;

/** Raw JSON text of a value nested `depth` levels deep (past the 64-level limit, up to 200,000). */
export const deepText: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(65, 66, 100, 1000, 2500, 10_000, 200_000), fc.constantFrom("[]", '{"a":}', "[{}]"))
  .map(([depth, kind]) => {
    if (kind === "[]") return `${"[".repeat(depth)}${"]".repeat(depth)}`;
    if (kind === "[{}]") return `${"[{".repeat(depth / 2 + 1)}${"}]".repeat(depth / 2 + 1)}`;
    return `${'{"a":'.repeat(depth)}0${"}".repeat(depth)}`;
  });

/** Number and literal text JSON.parse takes or refuses but JSON.stringify never writes. */
export const oddJsonText = fc.constantFrom(
  "1e999",
  "-1e999",
  "-0",
  "0.0000000000000000000000001",
  "123456789012345678901234567890",
  "1E+2",
  '"\\ud800"',
  '"\\u0000"',
  '"\\udfff\\ud800"',
  "[1,]",
  "{,}",
  "01",
  "NaN",
  "undefined",
  "'single'",
  '"unterminated',
  "",
  " ",
  "\ufeff{}",
  "{}\u0000",
);

/** Bytes that are not UTF-8: stray continuation bytes, overlong encodings, encoded surrogates, cut sequences. */
export const invalidUtf8 = fc.constantFrom(
  Buffer.from([0xff]),
  Buffer.from([0x80]),
  Buffer.from([0xc0, 0x80]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xf4, 0x90, 0x80, 0x80]),
  Buffer.from([0xe2, 0x82]),
  Buffer.from([0xfe, 0xfe, 0xff]),
);

/** A string as a URL component: percent-encoded as UTF-8 (lone surrogates become U+FFFD), or raw. */
export function urlComponent(s: string, raw: boolean): string {
  if (!raw) return encodeURIComponent(Buffer.from(s, "utf8").toString("utf8"));
  return s.replace(/[\s#?/]/gu, (c) => encodeURIComponent(Buffer.from(c, "utf8").toString("utf8")));
}

/** Path segments and query values that percent-decoding chokes on or that mean something to a router. */
export const rawUrlPieces = fc.constantFrom(
  "%",
  "%Z",
  "%zz",
  "%00",
  "%ED%A0%80",
  "%C0%80",
  "%FF%FE",
  "%2F",
  "%2e%2e",
  "..",
  ".",
  "%252F",
  "%u0041",
  "a%20b",
  "%E2%80%AE",
  "%F0%9F%98%80",
  "%EF%BB%BF",
);
