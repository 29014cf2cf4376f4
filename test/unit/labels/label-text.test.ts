import { describe, expect, it } from "vitest";
import { scriptRefusal } from "../../../src/labels/label-scripts.js";
import { ellipsize, fitAddress, type Measure, wrapText } from "../../../src/labels/label-text.js";

/** Every character half the size wide: a line of width w holds 2w/size characters. */
const measure: Measure = (s, size) => [...s].length * size * 0.5;
const has = (cp: number) => cp < 0x2000;

describe("label text", () => {
  it("wraps words, breaks a word longer than the line, and drops no line", () => {
    expect(wrapText(measure, "aaa bbb ccc\n\nddd", 10, 40)).toEqual(["aaa bbb", "ccc", "", "ddd"]);
    expect(wrapText(measure, "abcdefghijkl", 10, 40)).toEqual(["abcdefgh", "ijkl"]);
  });

  it("sets the address smaller, a point at a time, down to 8 pt, then refuses in words", () => {
    const five = Array.from({ length: 5 }, (_, i) => `${i}`.repeat(60)).join("\n");
    // ten wrapped lines: 16.8 pt each at 14 pt, 12 pt each at 10 pt
    const fit = fitAddress(measure, five, 260, 120);
    expect(fit).toMatchObject({ ok: true, size: 10 });
    expect(fit.lines.join("")).toBe(five.replace(/\n/g, ""));
    const big = fitAddress(measure, "x ".repeat(2000), 260, 200);
    expect(big).toMatchObject({ ok: false, size: 8 });
    if (!big.ok)
      expect(big.reason).toMatch(
        /^the shipping address does not fit the label: \d+ lines at 8 pt, room for 20$/,
      );
  });

  it("cuts a line with an ellipsis", () => {
    expect(ellipsize(measure, "abcdefghij", 10, 30)).toBe("abcde…");
    expect(ellipsize(measure, "abc", 10, 30)).toBe("abc");
  });

  it("names the field and the script it refuses", () => {
    expect(scriptRefusal("the shipping address", "東京都 ちよだ", has)).toBe(
      "the shipping address holds Japanese characters (東, 京, 都, ち, よ, …), which the label cannot print",
    );
    expect(scriptRefusal("the shipping address", "شارع", () => true)).toMatch(
      /holds Arabic characters \(ش, ا, ر, ع\), which the label cannot print \(its letters need joining/,
    );
    expect(scriptRefusal("the box id", "Ąę Ωμέγα Москва İstanbul Příbram", has)).toBeUndefined();
    expect(scriptRefusal("the box id", "e\u0301", has)).toBeUndefined();
  });
});
