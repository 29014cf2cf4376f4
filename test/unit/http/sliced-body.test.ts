import { describe, expect, it } from "vitest";
import { SLICE_BYTES, slicedBody } from "../../../src/http/sliced-body.js";

describe("a large answer in slices", () => {
  it("gives back the same bytes, in slices of at most SLICE_BYTES, each after the first on a later turn", async () => {
    const bytes = Uint8Array.from({ length: 3 * SLICE_BYTES + 123 }, (_, i) => i % 251);
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const reader = slicedBody(bytes).getReader();
    const slices: Array<{ length: number; turn: number }> = [];
    const got: number[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      slices.push({ length: value.length, turn: turns });
      got.push(...value);
    }
    ticking = false;
    expect(Buffer.from(got).equals(Buffer.from(bytes))).toBe(true);
    expect(slices.map((s) => s.length)).toEqual([SLICE_BYTES, SLICE_BYTES, SLICE_BYTES, 123]);
    for (let i = 1; i < slices.length; i++)
      expect(slices[i]?.turn).toBeGreaterThan(slices[i - 1]?.turn as number);
  });
});
