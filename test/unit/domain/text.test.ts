import { describe, expect, it } from "vitest";
import { z } from "zod";
import { passwordProblem } from "../../../src/domain/password-policy.js";
import { boundedText, MAX_TEXT } from "../../../src/domain/security-event.js";
import { characters, cutText, longerThan, shorterThan } from "../../../src/domain/text.js";

const SAMPLES = [
  "",
  "abc",
  "größe",
  "品番",
  "😀",
  "𠀀".repeat(3),
  "a😀b",
  "\ud800", // a lone high surrogate
  "\udc00x", // a lone low surrogate
  "e\u0301", // e and a combining accent: two code points
];

describe("the length of a text, in characters (code points)", () => {
  it("counts a character outside the BMP once, a lone surrogate once, a combining mark as its own", () => {
    expect(SAMPLES.map(characters)).toEqual([0, 3, 5, 2, 1, 3, 3, 1, 2, 2]);
    for (const s of SAMPLES) expect([s, characters(s)]).toEqual([s, [...s].length]);
  });

  it("counts as zod's string limits do, so a hand-written check and a schema never disagree", () => {
    for (const s of SAMPLES)
      for (const n of [0, 1, 2, 3, 4, 5, 6]) {
        const at = [s, n];
        expect([...at, z.string().max(n).safeParse(s).success]).toEqual([...at, !longerThan(s, n)]);
        expect([...at, z.string().min(n).safeParse(s).success]).toEqual([...at, !shorterThan(s, n)]);
        expect([...at, z.string().length(n).safeParse(s).success]).toEqual([...at, characters(s) === n]);
      }
  });

  it("holds 255 characters outside the BMP within a limit of 255", () => {
    const s = "😀".repeat(255);
    expect([s.length, longerThan(s, 255), longerThan(`${s}😀`, 255)]).toEqual([510, false, true]);
  });

  it("cuts a text at a character, never inside a surrogate pair", () => {
    expect(cutText("😀".repeat(5), 3)).toBe("😀😀…");
    expect(cutText("abc", 3)).toBe("abc");
    const bounded = boundedText("😀".repeat(MAX_TEXT + 1)) as string;
    expect([characters(bounded), /\p{Cs}/u.test(bounded)]).toEqual([MAX_TEXT, false]);
  });

  it("counts a password in characters", () => {
    expect(passwordProblem("😀".repeat(6))).toMatch(/at least 12 characters/);
    expect(passwordProblem("😀".repeat(12))).toBeNull();
    expect(passwordProblem("😀".repeat(200))).toBeNull();
  });
});
