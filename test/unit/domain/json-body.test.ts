import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AppError } from "../../../src/domain/errors.js";
import { identifierProblem } from "../../../src/domain/identifier.js";
import { MAX_JSON_CONTAINERS, MAX_JSON_DEPTH, parseJsonBody } from "../../../src/domain/json-body.js";

const code = (text: string) => {
  try {
    parseJsonBody(text);
    return "parsed";
  } catch (e) {
    return (e as AppError).code;
  }
};
const deep = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;

describe("parseJsonBody", () => {
  it("parses up to the depth limit and refuses beyond it before parsing", () => {
    expect(code(deep(MAX_JSON_DEPTH))).toBe("parsed");
    expect(code(deep(MAX_JSON_DEPTH + 1))).toBe("body_too_deep");
    // refused by the scan even though the text would not parse at all
    expect(code("[".repeat(100_000))).toBe("body_too_deep");
  });

  it("does not count brackets in strings, escaped quotes included", () => {
    const s = JSON.stringify({ a: `\\"${"[{".repeat(500)}"` });
    expect(code(s)).toBe("parsed");
    expect(code(`["\\\\", ${deep(MAX_JSON_DEPTH)}]`)).toBe("body_too_deep");
  });

  it("judges the depth of any JSON text exactly, whatever its strings hold (quotes, backslashes, brackets)", () => {
    const depthOf = (v: unknown): number =>
      typeof v === "object" && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0;
    const tricky = fc.stringMatching(/^[\\"[\]{}a]*$/);
    const value = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: "small" },
        tricky,
        fc.integer(),
        fc.array(tie("v")),
        fc.dictionary(tricky, tie("v"), { maxKeys: 3 }),
      ),
    })).v;
    fc.assert(
      fc.property(value, fc.boolean(), (v, over) => {
        // wrapped in as many arrays as bring it to the limit, or one past it
        const wraps = Math.max(0, MAX_JSON_DEPTH - depthOf(v)) + (over ? 1 : 0);
        const text = `${"[".repeat(wraps)}${JSON.stringify(v)}${"]".repeat(wraps)}`;
        expect(code(text)).toBe(depthOf(v) + wraps > MAX_JSON_DEPTH ? "body_too_deep" : "parsed");
      }),
      { numRuns: 300 },
    );
  });

  it("refuses more arrays and objects than the limit before parsing, naming the top-level member", () => {
    const empties = (n: number) => `[${Array.from({ length: n }, () => "{}").join(",")}]`;
    // the body itself and imageData's array count too
    const item = (n: number) => `{"description":"a [ { in a string","imageData":${empties(n)}}`;
    expect(code(item(MAX_JSON_CONTAINERS - 2))).toBe("parsed");
    expect(code(item(MAX_JSON_CONTAINERS - 1))).toBe("validation_failed");
    let error: AppError | undefined;
    try {
      parseJsonBody(item(MAX_JSON_CONTAINERS * 10));
    } catch (e) {
      error = e as AppError;
    }
    expect(error?.errors).toEqual([
      {
        path: "imageData",
        message: `at most ${MAX_JSON_CONTAINERS} arrays and objects in the body; more by here`,
      },
    ]);
    // the count is the body's: a member past the limit is the one being read when it is passed
    const split = `{"a":${empties(MAX_JSON_CONTAINERS / 2)},"b":${empties(MAX_JSON_CONTAINERS / 2)}}`;
    expect(
      (() => {
        try {
          parseJsonBody(split);
        } catch (e) {
          return (e as AppError).errors[0]?.path;
        }
      })(),
    ).toBe("b");
    // refused by the scan, not by JSON.parse: a text that would not even parse
    expect(code(`${empties(MAX_JSON_CONTAINERS)}garbage`)).toBe("validation_failed");
  });

  it("names invalid JSON malformed_json", () => {
    expect(code("{")).toBe("malformed_json");
    expect(() => parseJsonBody("{")).toThrow(AppError);
  });
});

describe("identifierProblem", () => {
  it.each([
    ["ORDER-1", undefined],
    ["ORDER-😀", undefined],
    ["A\uD800", "Unicode"],
    ["\uDC00B", "Unicode"],
    ["A\u0000", "control"],
    ["A\tB", "control"],
    ["A\u007f", "control"],
  ])("%j → %s", (s, problem) => {
    const found = identifierProblem(s);
    if (problem === undefined) expect(found).toBeUndefined();
    else expect(found).toContain(problem);
  });
});
